import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCatalogError } from '../../src/catalog/errors.ts';
import {
  FABRIC_TYPES,
  makeDatasetUrn,
  parseDatasetUrn,
  parseUrn,
  schemaFieldUrn,
  validateUrnForIngest,
  type DatasetKey,
} from '../../src/catalog/urn.ts';

/** Every failure must be a 400 carrying DataHub's exact text. */
function rejects(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(isCatalogError(err), `expected a CatalogError, got ${String(err)}`);
    assert.equal(err.code, 'BAD_REQUEST');
    assert.equal(err.message, message);
    return true;
  });
}

const HIVE_USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const FLOW = 'urn:li:dataFlow:(airflow,daily_etl,prod)';
const at = (u: string) => ` Urn: ${u}`;

describe('parseUrn', () => {
  const valid: [raw: string, namespace: string, entityType: string, key: string, parts: string[]][] = [
    ['urn:li:corpuser:datahub', 'li', 'corpuser', 'datahub', ['datahub']],
    [HIVE_USERS, 'li', 'dataset', '(urn:li:dataPlatform:hive,db.users,PROD)', ['urn:li:dataPlatform:hive', 'db.users', 'PROD']],
    // Nested urns keep their own commas: only depth-1 commas split.
    [`urn:li:dataJob:(${FLOW},task_1)`, 'li', 'dataJob', `(${FLOW},task_1)`, [FLOW, 'task_1']],
    [`urn:li:schemaField:(${HIVE_USERS},id)`, 'li', 'schemaField', `(${HIVE_USERS},id)`, [HIVE_USERS, 'id']],
    ['urn:li:x:((a,b),(c,d))', 'li', 'x', '((a,b),(c,d))', ['(a,b)', '(c,d)']],
    ['urn:my-ns2:thing:k', 'my-ns2', 'thing', 'k', ['k']],
    [`urn:${'a'.repeat(32)}:t:k`, 'a'.repeat(32), 't', 'k', ['k']],
    ['urn:li:my_Type2:k', 'li', 'my_Type2', 'k', ['k']],
    ['urn:li:tag:a:b:c', 'li', 'tag', 'a:b:c', ['a:b:c']],
    ['urn:li:corpuser:(bob)', 'li', 'corpuser', '(bob)', ['bob']],
    ['urn:li:tag:foo(bar)', 'li', 'tag', 'foo(bar)', ['foo(bar)']],
    ['urn:li:corpuser:a,b', 'li', 'corpuser', 'a,b', ['a,b']],
    ['urn:li:corpuser:bob ', 'li', 'corpuser', 'bob ', ['bob ']],
    // TupleKey quirk kept on purpose: text after the closing paren joins the last part.
    ['urn:li:x:(a,b)c', 'li', 'x', '(a,b)c', ['a', 'b)c']],
  ];
  for (const [raw, namespace, entityType, key, parts] of valid) {
    it(`accepts ${raw}`, () => {
      assert.deepEqual({ ...parseUrn(raw) }, { raw, namespace, entityType, key, parts });
    });
  }

  const invalid: [raw: string, message: string][] = [
    ['urx:li:corpuser:a', "Urn doesn't start with 'urn:'." + at('urx:li:corpuser:a')],
    ['', "Urn doesn't start with 'urn:'." + at('')],
    [' urn:li:corpuser:a', "Urn doesn't start with 'urn:'." + at(' urn:li:corpuser:a')],
    ['urn:Li:corpuser:a', 'First char of Urn namespace must be [a-z]!' + at('urn:Li:corpuser:a')],
    ['urn:1i:corpuser:a', 'First char of Urn namespace must be [a-z]!' + at('urn:1i:corpuser:a')],
    ['urn:', 'First char of Urn namespace must be [a-z]!' + at('urn:')],
    ['urn:li', "Missing second ':' char." + at('urn:li')],
    [`urn:${'a'.repeat(33)}:t:k`, 'Namespace length > 32 chars.' + at(`urn:${'a'.repeat(33)}:t:k`)],
    ['urn:l_i:corpuser:a', 'Chars in namespace must be [a-z0-9-]!.' + at('urn:l_i:corpuser:a')],
    ['urn:li:Corpuser:a', 'First char of entityType must be [a-z]!' + at('urn:li:Corpuser:a')],
    ['urn:li::a', 'First char of entityType must be [a-z]!' + at('urn:li::a')],
    ['urn:li:', 'First char of entityType must be [a-z]!' + at('urn:li:')],
    ['urn:li:corp-user:a', 'entityType must have only [a-zA-Z_0-9] chars.' + at('urn:li:corp-user:a')],
    // Without a third ':' DataHub's entityType message drops the underscore.
    ['urn:li:corp-user', 'entityType must have only [a-zA-Z0-9] chars.' + at('urn:li:corp-user')],
    ['urn:li:corpuser:', 'Urns with empty entityKey are not allowed.' + at('urn:li:corpuser:')],
    ['urn:li:corpuser', 'Urns with empty entityKey are not allowed.' + at('urn:li:corpuser')],
    ['urn:li:dataset:(a,b', 'mismatched paren nesting'],
    ['urn:li:dataset:(a,b))', 'mismatched paren nesting'],
    ['urn:li:dataset:(a,(b,c)', 'mismatched paren nesting'],
    ['urn:li:tag:a)b(', 'mismatched paren nesting'],
    ['urn:li:tag:a(b', 'mismatched paren nesting'],
    ['urn:li:dataset:(a,,b)', 'empty part disallowed'],
    ['urn:li:dataset:(,a)', 'empty part disallowed'],
    ['urn:li:dataset:(a,)', 'empty part disallowed'],
    ['urn:li:dataset:()', 'empty part disallowed'],
  ];
  for (const [raw, message] of invalid) {
    it(`rejects ${JSON.stringify(raw)}`, () => rejects(() => parseUrn(raw), message));
  }
});

describe('parseDatasetUrn', () => {
  const hive = (name: string, origin = 'PROD'): DatasetKey => ({ platform: 'urn:li:dataPlatform:hive', platformName: 'hive', name, origin });
  const valid: [raw: string, key: DatasetKey][] = [
    [HIVE_USERS, hive('db.users')],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,topic(x,y),DEV)', hive('topic(x,y)', 'DEV')],
    // DatasetUrn trims the name, and a one-part paren key is still one part.
    ['urn:li:dataset:(urn:li:dataPlatform:hive, db.users ,PROD)', hive('db.users')],
    ['urn:li:dataset:(urn:li:dataPlatform:(hive),db.users,PROD)', hive('db.users')],
    ...FABRIC_TYPES.map((f): [string, DatasetKey] => [`urn:li:dataset:(urn:li:dataPlatform:hive,t,${f})`, hive('t', f)]),
  ];
  for (const [raw, key] of valid) {
    it(`accepts ${raw}`, () => {
      assert.deepEqual(parseDatasetUrn(raw), key);
      assert.deepEqual(parseDatasetUrn(parseUrn(raw)), key);
    });
  }

  const param = (msg: string) => `Invalid URN Parameter: '${msg}`;
  const invalid: [raw: string, message: string][] = [
    ['nope', "Urn doesn't start with 'urn:'." + at('nope')],
    ['urn:xx:dataset:(urn:li:dataPlatform:hive,t,PROD)', "Urn namespace type should be 'li'."],
    ['urn:li:chart:(looker,1)', "Urn entity type should be 'dataset'."],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,t)', 'Invalid number of keys.'],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db,t,PROD)', 'Invalid number of keys.'],
    ['urn:li:dataset:db.users', 'Invalid number of keys.'],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,t,prod)', param('No enum constant com.linkedin.common.FabricType.prod')],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,t,LIVE)', param('No enum constant com.linkedin.common.FabricType.LIVE')],
    // Part 1 goes through DataPlatformUrn; Java's URISyntaxException.getMessage() is nested.
    ['urn:li:dataset:(hive,t,PROD)', param("Invalid URN syntax: Urn doesn't start with 'urn:'. Urn: hive at index 0: hive")],
    ['urn:li:dataset:(urn:li:corpuser:hive,t,PROD)', param("Invalid URN syntax: Urn entity type should be 'dataPlatform'.: urn:li:corpuser:hive")],
    ['urn:li:dataset:(urn:xx:dataPlatform:hive,t,PROD)', param("Invalid URN syntax: Urn namespace type should be 'li'.: urn:xx:dataPlatform:hive")],
    ['urn:li:dataset:(urn:li:dataPlatform:(a,b),t,PROD)', param('Invalid URN syntax: Invalid number of keys.: urn:li:dataPlatform:(a,b)')],
    // The platform is checked before the fabric.
    ['urn:li:dataset:(urn:li:corpuser:x,t,prod)', param("Invalid URN syntax: Urn entity type should be 'dataPlatform'.: urn:li:corpuser:x")],
  ];
  for (const [raw, message] of invalid) {
    it(`rejects ${raw}`, () => rejects(() => parseDatasetUrn(raw), message));
  }

  it('exports the FabricType symbols in order', () => {
    assert.deepEqual(
      [...FABRIC_TYPES],
      ['DEV', 'TEST', 'QA', 'UAT', 'EI', 'PRE', 'STG', 'NON_PROD', 'PROD', 'CORP', 'RVW', 'PRD', 'TST', 'SIT', 'SBX', 'SANDBOX', 'CERT'],
    );
  });
});

describe('validateUrnForIngest', () => {
  // "urn:li:corpuser:" is 22 bytes URL-encoded (each ':' becomes %3A).
  const user = (id: string) => `urn:li:corpuser:${id}`;
  // The dataset frame is 67 bytes encoded: Java's URLEncoder escapes ( ) , : as %XX.
  const dataset = (name: string) => makeDatasetUrn('hive', name);
  const longDataset = dataset('a'.repeat(600));
  const invalidUrn = (u: string, cause: string) => `Invalid urn: ${u}\n Cause: ${cause}`;
  const keyLength = (u: string) => `Failed to convert urn to entity key: urns parts and key fields do not have same length for ${u}`;
  const WS = 'Error: cannot provide an URN with leading or trailing whitespace';
  const TOO_LONG = 'Error: cannot provide an URN longer than 512 bytes (when URL encoded)';
  const SEP = 'Error: URN cannot contain ␟ character';

  const valid: string[] = [
    user('datahub'),
    user('a,b'), // commas in simple urns are only reported in strict mode
    user('a(b)'),
    user('bob\u00a0'), // Java's trim() only strips chars <= U+0020
    HIVE_USERS,
    `urn:li:dataJob:(${FLOW},task_1)`,
    FLOW,
    'urn:li:chart:(looker,dashboards.1)',
    'urn:li:dashboard:(looker,1)',
    'urn:li:container:abc123',
    'urn:li:tag:anything_goes', // no key check for types without a known key shape
    user('a'.repeat(490)), // exactly 512 bytes
    user(`${'a'.repeat(245)} ${'a'.repeat(244)}`), // a space encodes as '+', one byte
    user(`${'é'.repeat(81)}abcd`), // each é is two UTF-8 bytes, %C3%A9: 22 + 486 + 4 = 512
    dataset('a'.repeat(445)), // exactly 512 bytes
    // schemaField urns are exempt from the 512-byte rule (this one is 599 bytes, far more URL-encoded) ...
    schemaFieldUrn(HIVE_USERS, `(${'f'.repeat(516)})`),
  ];
  for (const raw of valid) {
    it(`accepts ${raw.length > 80 ? `${raw.slice(0, 60)}… (${raw.length} chars)` : raw}`, () => {
      assert.equal(validateUrnForIngest(raw).raw, raw);
    });
  }

  const invalid: [name: string, raw: string, message: string][] = [
    ['a grammar error', 'urn:li:corpuser:', 'Urns with empty entityKey are not allowed.' + at('urn:li:corpuser:')],
    ['leading whitespace (grammar first)', ` ${user('bob')}`, "Urn doesn't start with 'urn:'." + at(` ${user('bob')}`)],
    ['a trailing space', user('bob '), WS],
    ['a trailing tab', user('bob\t'), WS],
    ['a trailing newline', user('bob\n'), WS],
    [
      'lowercase prod',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,prod)',
      invalidUrn(
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,prod)',
        "Invalid URN Parameter: 'No enum constant com.linkedin.common.FabricType.prod",
      ),
    ],
    [
      'an unknown fabric',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,LIVE)',
      invalidUrn(
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,LIVE)',
        "Invalid URN Parameter: 'No enum constant com.linkedin.common.FabricType.LIVE",
      ),
    ],
    [
      'a dataset with 2 parts',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users)',
      invalidUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.users)', 'Invalid number of keys.'),
    ],
    [
      'a dataset outside li',
      'urn:xx:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      invalidUrn('urn:xx:dataset:(urn:li:dataPlatform:hive,t,PROD)', "Urn namespace type should be 'li'."),
    ],
    // The key check runs before the whitespace check, so the fabric absorbs the space.
    [
      'a dataset with a trailing space',
      `${HIVE_USERS} `,
      invalidUrn(`${HIVE_USERS} `, "Invalid URN Parameter: 'No enum constant com.linkedin.common.FabricType.PROD) "),
    ],
    ['a dataJob with 1 part', `urn:li:dataJob:(${FLOW})`, keyLength(`urn:li:dataJob:(${FLOW})`)],
    ['a dataFlow with 2 parts', 'urn:li:dataFlow:(airflow,dag)', keyLength('urn:li:dataFlow:(airflow,dag)')],
    ['a chart with 3 parts', 'urn:li:chart:(looker,1,2)', keyLength('urn:li:chart:(looker,1,2)')],
    ['a dashboard with 1 part', 'urn:li:dashboard:looker', keyLength('urn:li:dashboard:looker')],
    ['a schemaField with 3 parts', `urn:li:schemaField:(${HIVE_USERS},a,b)`, keyLength(`urn:li:schemaField:(${HIVE_USERS},a,b)`)],
    ['a corpuser tuple', user('(a,b)'), keyLength(user('(a,b)'))],
    ['a dataPlatform tuple', 'urn:li:dataPlatform:(a,b)', keyLength('urn:li:dataPlatform:(a,b)')],
    ['513 bytes', user('a'.repeat(491)), TOO_LONG],
    ['513 bytes of multi-byte chars', user(`${'é'.repeat(81)}abcde`), TOO_LONG],
    // 509 bytes by encodeURIComponent, 513 by Java's URLEncoder (parens are escaped).
    ['a dataset one byte over', dataset('a'.repeat(446)), TOO_LONG],
    ['a long dataset (only schemaField is exempt)', longDataset, TOO_LONG],
    // ... but bounded at 600 bytes, so that an edge between two of them fits a PostgreSQL index entry.
    ['a schemaField over 600 bytes', schemaFieldUrn(longDataset, 'id'), 'Error: cannot provide a schemaField URN longer than 600 bytes (UTF-8)'],
    ['␟', user('a␟b'), SEP],
    ['trailing whitespace before length', user(`${'a'.repeat(600)} `), WS],
    ['length before ␟', user(`${'a'.repeat(600)}␟`), TOO_LONG],
  ];
  for (const [name, raw, message] of invalid) {
    it(`rejects ${name}`, () => rejects(() => validateUrnForIngest(raw), message));
  }
});

describe('urn builders', () => {
  it('makeDatasetUrn defaults to PROD and round-trips through parseDatasetUrn', () => {
    assert.equal(makeDatasetUrn('hive', 'db.users'), HIVE_USERS);
    for (const origin of FABRIC_TYPES) {
      const raw = makeDatasetUrn('snowflake', 'analytics.public.orders', origin);
      assert.deepEqual(parseDatasetUrn(raw), {
        platform: 'urn:li:dataPlatform:snowflake',
        platformName: 'snowflake',
        name: 'analytics.public.orders',
        origin,
      });
      assert.equal(validateUrnForIngest(raw).raw, raw);
    }
  });

  it('makeDatasetUrn accepts a full platform urn', () => {
    assert.equal(makeDatasetUrn('urn:li:dataPlatform:hive', 'db.users'), HIVE_USERS);
  });

  it("schemaFieldUrn percent-encodes parentheses and commas in the field path, as DataHub's SchemaFieldUtils does", () => {
    const raw = schemaFieldUrn(HIVE_USERS, 'address(street,zip)');
    assert.equal(raw, `urn:li:schemaField:(${HIVE_USERS},address%28street%2Czip%29)`);
    assert.deepEqual(validateUrnForIngest(raw).parts, [HIVE_USERS, 'address%28street%2Czip%29']);
  });

  it('schemaFieldUrn nests the dataset urn and round-trips through parseUrn', () => {
    const fieldPath = '[version=2.0].[type=struct].address.[type=string].zip';
    const raw = schemaFieldUrn(HIVE_USERS, fieldPath);
    assert.equal(raw, `urn:li:schemaField:(${HIVE_USERS},${fieldPath})`);
    const urn = validateUrnForIngest(raw);
    assert.equal(urn.entityType, 'schemaField');
    assert.deepEqual(urn.parts, [HIVE_USERS, fieldPath]);
    assert.equal(parseDatasetUrn(urn.parts[0] as string).name, 'db.users');
  });
});
