/**
 * Versioned schema migrations for the SQLite adapter, applied in order on start.
 * A migration is never edited once released: add a new one.
 */
import { AUTH_CHANGE_TRIGGERS } from '../auth-change-sql.ts';
import { FACET_FIELDS } from '../search-facet-fields.ts';
import { FILL_DOC_NAMES_SQL } from './search-docs.ts';
import { DOC_VALUE_ROWS, REMOVED_KEY, REMOVED_ROWS, sqlFieldList, VALUE_FIELDS_SQL, valueIndexTerm } from '../search-keys.ts';

const KEY_ROWS_SQL = sqlFieldList(DOC_VALUE_ROWS);
const FACET_FIELDS_SQL = sqlFieldList(FACET_FIELDS);

/**
 * The keys table made again with typed keys (migration 28), every document's keys written from its own rows (seeks by
 * urn in document order: no sort): its facet values' keys its type's (storage/search-keys.ts: facetKey), its other
 * key fields' values, the presence of each VALUE_KEY_FIELDS field, the soft-deletion key, then its type's key.
 */
const TYPED_KEYS = `
  DROP TABLE search_keys;
  CREATE VIRTUAL TABLE search_keys USING fts5 (keys, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii');
  INSERT INTO search_keys (rowid, keys)
    SELECT doc, keys || ' ' || search_key(char(3), entity_type) FROM (
      SELECT d.id AS doc, d.entity_type AS entity_type, (
          SELECT group_concat(k.key, ' ') FROM (
            SELECT search_key(CASE WHEN x.field IN (${FACET_FIELDS_SQL}) THEN d.entity_type || char(3) || x.field ELSE x.field END, x.value) AS key
              FROM search_fields x WHERE x.urn = d.urn AND x.field IN (${KEY_ROWS_SQL})
            UNION ALL
            SELECT DISTINCT search_key(char(2) || x.field, '') FROM search_fields x WHERE x.urn = d.urn AND x.field IN (${VALUE_FIELDS_SQL})
            UNION ALL
            SELECT '${REMOVED_KEY}' FROM search_fields x WHERE x.urn = d.urn AND ${REMOVED_ROWS}
          ) k) AS keys
        FROM search_docs d) t
     WHERE keys IS NOT NULL ORDER BY doc;
`;

/**
 * The FTS5 index over search_text's words (an external-content table kept current by its two triggers, FTS5's
 * documented pattern): created by migration 16, created again by 24 over the renumbered rows.
 */
const SEARCH_WORDS = `CREATE VIRTUAL TABLE search_words USING fts5 (words, content = 'search_text', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
  CREATE TRIGGER search_text_inserted AFTER INSERT ON search_text BEGIN
    INSERT INTO search_words (rowid, words) VALUES (NEW.id, NEW.words);
  END;
  CREATE TRIGGER search_text_deleted AFTER DELETE ON search_text BEGIN
    INSERT INTO search_words (search_words, rowid, words) VALUES ('delete', OLD.id, OLD.words);
  END;`;

export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE entities (
    urn TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL,
    created_on INTEGER NOT NULL,
    created_by TEXT NOT NULL
  );
  CREATE INDEX entities_by_type ON entities (entity_type, urn);
  CREATE TABLE aspects (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    version INTEGER NOT NULL,
    entity_type TEXT NOT NULL,
    metadata TEXT NOT NULL,
    system_metadata TEXT,
    created_on INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (urn, aspect, version)
  );
  CREATE TABLE ts_indices (
    id INTEGER PRIMARY KEY,
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    UNIQUE (entity_type, aspect)
  );
  CREATE TABLE ts_partitions (
    index_id INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    row_count INTEGER NOT NULL,
    PRIMARY KEY (index_id, start_ms)
  ) WITHOUT ROWID;
  CREATE TABLE access_tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    actor_urn TEXT NOT NULL,
    owner_urn TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE INDEX access_tokens_by_owner ON access_tokens (owner_urn);
  `,
  // Users, roles and sign-in: kept out of the aspect tables so that no ingestion can grant a role or read a hash.
  `
  CREATE TABLE role_assignments (
    actor_urn TEXT PRIMARY KEY,
    role_urn TEXT NOT NULL,
    assigned_by TEXT NOT NULL,
    assigned_at INTEGER NOT NULL
  );
  CREATE TABLE user_credentials (
    user_urn TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE login_failures (
    username TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure_at INTEGER NOT NULL
  );
  CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);
  `,
  // Background tasks (timeseries truncation). The partial unique index lets only
  // one truncation run per index, whichever process starts it.
  `
  CREATE TABLE tasks (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    node_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created_by TEXT NOT NULL,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    cutoff_ms INTEGER NOT NULL,
    strategy TEXT NOT NULL,
    batch_size INTEGER NOT NULL,
    timeout_seconds INTEGER,
    requests_per_second REAL,
    total_rows INTEGER NOT NULL,
    rows_to_delete INTEGER NOT NULL,
    rows_deleted INTEGER NOT NULL DEFAULT 0,
    batches INTEGER NOT NULL DEFAULT 0,
    partitions_dropped INTEGER NOT NULL DEFAULT 0,
    throttled_ms INTEGER NOT NULL DEFAULT 0,
    freed_bytes INTEGER NOT NULL DEFAULT 0,
    size_bytes_before INTEGER,
    size_bytes_after INTEGER,
    reclaimed_bytes INTEGER,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    heartbeat_at INTEGER NOT NULL,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0
  );
  CREATE UNIQUE INDEX tasks_one_running_per_index ON tasks (kind, entity_type, aspect) WHERE state = 'running';
  `,
  // Retired partitions: a truncation takes whole days out of ts_partitions at once and lists their tables here;
  // reclaim drops them later. A day written again gets a new generation, hence a table of its own.
  `
  ALTER TABLE ts_partitions ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE ts_retired (
    index_id INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    row_count INTEGER NOT NULL,
    retired_at INTEGER NOT NULL,
    -- The truncation task that retired it, whose reclaim drops it; null when no task did.
    task_number INTEGER,
    PRIMARY KEY (index_id, start_ms, generation)
  );
  `,
  // Soft-deleted entities by type, for search and datahub-gc: only the removed status aspects are in it.
  `
  CREATE INDEX aspects_soft_deleted ON aspects (entity_type, urn)
    WHERE aspect = 'status' AND version = 0 AND json_extract(metadata, '$.removed') = 1;
  `,
  // The run that wrote each aspect version, in a column of its own: re-sending an unchanged value rewrites the latest
  // version's system_metadata (so an index on its runId would move) but not who wrote the value. Rows written before
  // take the runId their system_metadata holds. The partial index serves a run's latest versions and the run list.
  `
  ALTER TABLE aspects ADD COLUMN run_id TEXT;
  UPDATE aspects SET run_id = json_extract(system_metadata, '$.runId') WHERE json_type(system_metadata, '$.runId') = 'text';
  CREATE INDEX aspects_by_run ON aspects (run_id, urn, aspect, created_on) WHERE version = 0;
  `,
  // The relationship index: one row per edge an aspect declares, keyed in DataHub's scroll order; read one hop at a
  // time by source (the key) or by destination, replaced by owner and aspect. soft_deletions marks entities whose
  // status is removed. The store fills both from the stored aspects in this migration's transaction (RELATIONSHIPS_MIGRATION).
  `
  CREATE TABLE relationships (
    source_urn TEXT NOT NULL,
    destination_urn TEXT NOT NULL,
    relationship_type TEXT NOT NULL,
    owner_urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    source_type TEXT NOT NULL,
    destination_type TEXT NOT NULL,
    via_urn TEXT,
    PRIMARY KEY (source_urn, destination_urn, relationship_type, owner_urn, aspect)
  ) WITHOUT ROWID;
  -- Covers every column: a walk reads thousands of edges by destination, and a lookup into the table for each costs
  -- several times the index read itself.
  CREATE INDEX relationships_incoming ON relationships (destination_urn, source_urn, relationship_type, owner_urn, aspect, via_urn, source_type, destination_type);
  CREATE INDEX relationships_by_owner ON relationships (owner_urn, aspect);
  CREATE TABLE soft_deletions (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    PRIMARY KEY (urn, aspect)
  ) WITHOUT ROWID;
  `,
  // Users: a session epoch per user (ending sessions raises it; it outlives the user, so a re-created user revives no
  // session), one invite token per role (only its nonce: the token is derived from it and the signing key), and
  // sign-in failures counted per username and source address, so a third party cannot lock a user out.
  `
  CREATE TABLE user_access (
    user_urn TEXT PRIMARY KEY,
    session_epoch INTEGER NOT NULL
  );
  CREATE TABLE invite_tokens (
    role_key TEXT PRIMARY KEY,
    nonce TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL
  );
  CREATE TABLE sign_in_failures (
    username TEXT NOT NULL,
    address TEXT NOT NULL,
    failures INTEGER NOT NULL,
    last_failure_at INTEGER NOT NULL,
    PRIMARY KEY (username, address)
  );
  CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_failure_at);
  -- Replaced by sign_in_failures.
  DROP TABLE login_failures;
  `,
  // A counter per change-counted entity type (GrantBasis in ports/identity.ts), raised by triggers on every committed change to any
  // aspect row of it, whatever the path (write, delete, rollback): readers cache what they derive from those
  // entities (the policies) and compare one counter per request instead of reading them all again.
  `
  CREATE TABLE entity_type_changes (entity_type TEXT PRIMARY KEY, changes INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO entity_type_changes (entity_type, changes) VALUES ('dataHubPolicy', 0);
  CREATE TRIGGER policy_aspect_inserted AFTER INSERT ON aspects WHEN NEW.entity_type = 'dataHubPolicy'
  BEGIN UPDATE entity_type_changes SET changes = changes + 1 WHERE entity_type = 'dataHubPolicy'; END;
  CREATE TRIGGER policy_aspect_updated AFTER UPDATE ON aspects WHEN NEW.entity_type = 'dataHubPolicy' OR OLD.entity_type = 'dataHubPolicy'
  BEGIN UPDATE entity_type_changes SET changes = changes + 1 WHERE entity_type = 'dataHubPolicy'; END;
  CREATE TRIGGER policy_aspect_deleted AFTER DELETE ON aspects WHEN OLD.entity_type = 'dataHubPolicy'
  BEGIN UPDATE entity_type_changes SET changes = changes + 1 WHERE entity_type = 'dataHubPolicy'; END;
  `,
  // Periodic jobs run once across processes (ports/schedules.ts): one row per occurrence of a job, claimed with a
  // lease; the primary key is what lets one claimant win.
  `
  CREATE TABLE scheduled_runs (
    job TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    node_id TEXT NOT NULL,
    claimed_at INTEGER NOT NULL,
    lease_until INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    finished_at INTEGER,
    outcome TEXT,
    error TEXT,
    PRIMARY KEY (job, due_at)
  );
  `,
  // Tasks of any kind (ports/tasks.ts): what a task was asked to do and how far it got are JSON its kind reads, and
  // an exclusive key replaces the truncation-only unique index. Existing truncation tasks keep their numbers and
  // every value, moved into params and progress under the names the truncation code reads.
  `
  CREATE TABLE tasks_generic (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    node_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created_by TEXT NOT NULL,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    exclusive_key TEXT,
    params TEXT NOT NULL,
    progress TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    heartbeat_at INTEGER NOT NULL,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO tasks_generic (number, node_id, kind, state, created_by, owner_pid, owner_host, exclusive_key, params, progress,
                             started_at, ended_at, heartbeat_at, error, cancel_requested)
  SELECT number, node_id, kind, state, created_by, owner_pid, owner_host, kind || ':' || entity_type || ':' || aspect,
         json_object('entityType', entity_type, 'aspect', aspect, 'cutoffMillis', cutoff_ms, 'strategy', strategy,
                     'batchSize', batch_size, 'timeoutSeconds', timeout_seconds, 'requestsPerSecond', requests_per_second,
                     'totalRows', total_rows, 'rowsToDelete', rows_to_delete),
         json_object('rowsDeleted', rows_deleted, 'batches', batches, 'partitionsDropped', partitions_dropped,
                     'throttledMillis', throttled_ms, 'freedBytes', freed_bytes, 'sizeBytesBefore', size_bytes_before,
                     'sizeBytesAfter', size_bytes_after, 'reclaimedBytes', reclaimed_bytes),
         started_at, ended_at, heartbeat_at, error, cancel_requested
    FROM tasks;
  DROP TABLE tasks;
  ALTER TABLE tasks_generic RENAME TO tasks;
  CREATE UNIQUE INDEX tasks_one_running_per_key ON tasks (exclusive_key) WHERE state = 'running';
  `,
  // Retention (ports/retention.ts): policies as rows every process reads, and an index of earlier versions alone, so
  // a policy's pass and its preview read those and never the latest values.
  `
  CREATE TABLE retention_policies (
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    max_versions INTEGER,
    max_age_seconds INTEGER,
    source TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (entity_type, aspect)
  );
  CREATE INDEX aspects_history ON aspects (entity_type, aspect, urn, version) WHERE version > 0;
  `,
  // Row counts per 10-minute bucket of each day partition (storage/bucket-sql.ts): a dry run's count inside the
  // boundary day reads them instead of counting up to a day of rows. Days written before have none until first counted.
  `
  CREATE TABLE ts_buckets (
    index_id INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    row_count INTEGER NOT NULL,
    PRIMARY KEY (index_id, start_ms, generation, bucket)
  );
  ALTER TABLE ts_partitions ADD COLUMN bucketed INTEGER NOT NULL DEFAULT 0;
  `,
  // A counter raised by every committed change that can alter a request's authentication or grant basis
  // (storage/auth-change-sql.ts): each process caches what it read while the counter reads the same.
  `
  CREATE TABLE auth_changes (id INTEGER PRIMARY KEY CHECK (id = 1), changes INTEGER NOT NULL);
  INSERT INTO auth_changes (id, changes) VALUES (1, 0);
  ${AUTH_CHANGE_TRIGGERS.map(
    (t) => `CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table}${t.when ? ` WHEN ${t.when}` : ''}
  BEGIN UPDATE auth_changes SET changes = changes + 1; END;`,
  ).join('\n  ')}
  `, // Change events (ports/change-events.ts) as an outbox: triggers record each change of a deprecation and each end of a
  // truncation or retention task in the transaction that makes it, and fan each event out to the webhook
  // subscriptions it matches, so an event and its deliveries exist exactly when the change committed.
  `
  CREATE TABLE change_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_type TEXT NOT NULL,
    entity_urn TEXT NOT NULL,
    category TEXT NOT NULL,
    source TEXT NOT NULL,
    before_value TEXT,
    after_value TEXT NOT NULL,
    actor TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX change_events_by_time ON change_events (created_at);
  CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    sealed_secret TEXT NOT NULL,
    categories TEXT,
    entity_types TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    subscription_id TEXT NOT NULL,
    event_id INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_until INTEGER,
    last_status INTEGER,
    last_error TEXT,
    delivered_at INTEGER,
    PRIMARY KEY (subscription_id, event_id)
  ) WITHOUT ROWID;
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
  CREATE TRIGGER change_event_deprecation_inserted AFTER INSERT ON aspects WHEN NEW.aspect = 'deprecation' AND NEW.version = 0
  BEGIN
    INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at)
    VALUES (NEW.entity_type, NEW.urn, 'DEPRECATION', 'deprecation', NULL, NEW.metadata, NEW.created_by, NEW.created_on);
  END;
  CREATE TRIGGER change_event_deprecation_updated AFTER UPDATE OF metadata ON aspects
  WHEN NEW.aspect = 'deprecation' AND NEW.version = 0 AND OLD.version = 0 AND NEW.metadata <> OLD.metadata
  BEGIN
    INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at)
    VALUES (NEW.entity_type, NEW.urn, 'DEPRECATION', 'deprecation', OLD.metadata, NEW.metadata, NEW.created_by, NEW.created_on);
  END;
  CREATE TRIGGER change_event_task_ended AFTER UPDATE OF state ON tasks
  WHEN OLD.state = 'running' AND NEW.state <> 'running' AND NEW.kind IN ('truncateTimeseriesAspect', 'retention')
  BEGIN
    INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at)
    VALUES ('dataProcessInstance', 'urn:li:dataProcessInstance:almanac-' || CASE NEW.kind WHEN 'truncateTimeseriesAspect' THEN 'truncation' ELSE NEW.kind END || '-' || NEW.number, 'RUN', 'task', NULL,
            json_object('kind', NEW.kind, 'number', NEW.number, 'state', NEW.state, 'params', json(NEW.params),
                        'progress', json(NEW.progress), 'error', NEW.error, 'startedAt', NEW.started_at),
            NEW.created_by, COALESCE(NEW.ended_at, NEW.heartbeat_at));
  END;
  CREATE TRIGGER change_event_fan_out AFTER INSERT ON change_events
  BEGIN
    INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at)
    SELECT s.id, NEW.id, 'pending', 0, NEW.created_at FROM webhook_subscriptions s
     WHERE (s.categories IS NULL OR instr(s.categories, ',' || NEW.category || ',') > 0)
       AND (s.entity_types IS NULL OR instr(s.entity_types, ',' || NEW.entity_type || ',') > 0);
  END;
  `,
  // 16: the search index. Each aspect's exact values (filters, facets, sorts, names) in search_fields; each text
  // field's words in search_text, indexed by FTS5 (an external-content table kept current by its two triggers, FTS5's
  // documented pattern). Written with the aspect, in its transaction; backfilled from stored aspects by this migration.
  `
  CREATE TABLE search_fields (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    folded TEXT NOT NULL,
    num REAL,
    is_name INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX search_fields_by_urn ON search_fields (urn, aspect);
  CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn);
  CREATE INDEX search_fields_by_number ON search_fields (field, num) WHERE num IS NOT NULL;
  CREATE TABLE search_text (
    id INTEGER PRIMARY KEY,
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    field TEXT NOT NULL,
    boost REAL NOT NULL,
    by_default INTEGER NOT NULL,
    words TEXT NOT NULL
  );
  CREATE INDEX search_text_by_urn ON search_text (urn, aspect);
  ${SEARCH_WORDS}
  `,
  // 17: audit events (issue 36): one row per sign-in, token, user, role, group or policy change; pruned by age.
  `
  CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    actor_urn TEXT NOT NULL,
    entity_urn TEXT,
    entity_type TEXT,
    aspect_name TEXT,
    details TEXT
  );
  CREATE INDEX audit_events_by_time ON audit_events (ts, id);
  `,
  // 18: change events are recorded by the adapter from each write's outcome, in the write's transaction, as
  // catalog/events/change-event-rules.ts says (storage/ports/change-events.ts); the triggers of migration 15 go.
  `
  DROP TRIGGER change_event_deprecation_inserted;
  DROP TRIGGER change_event_deprecation_updated;
  DROP TRIGGER change_event_task_ended;
  DROP TRIGGER change_event_fan_out;
  `,
  // 19: search at scale (issue 31). Per urn, its values by field, covering: facets seek each match's values of a
  // field, and a page its name, without reading the table (deletes by urn and aspect read the urn's few rows). Names
  // alone, for the exact-name and name-prefix ranking tiers: a range of the folded names, not every search_fields row.
  `
  DROP INDEX search_fields_by_urn;
  CREATE INDEX search_fields_by_urn ON search_fields (urn, field, value);
  CREATE INDEX search_fields_names ON search_fields (folded) WHERE field IN ('_entityName', '_entityKeyName');
  `,
  // 20: the change log (issue 32): one entry per aspect change and per Entity Change Event, written in the change's
  // transaction. SQLite has one writer, so AUTOINCREMENT offsets are in commit order and never reused after a prune.
  // Webhooks deliver the log's DEPRECATION and RUN events (webhook_category), so their deliveries now name a log
  // offset and the change_events outbox goes. A delivery pending at the upgrade is carried over: its event becomes a
  // log entry (stored as the change it records, `{"change":...}`, which catalog/events/change-log.ts turns into the
  // same Entity Change Event the outbox sent), offsets 1..n in the events' order, and the delivery names that offset
  // (negated first, so no two deliveries of a subscription share an id mid-update). Finished deliveries go.
  `
  CREATE TABLE event_log (
    log_offset INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    entity_urn TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    value TEXT NOT NULL,
    webhook_category TEXT
  );
  CREATE INDEX event_log_by_topic ON event_log (topic, log_offset);
  DELETE FROM webhook_deliveries WHERE state <> 'pending';
  CREATE TEMP TABLE carried_events AS
    SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS log_offset FROM change_events WHERE id IN (SELECT event_id FROM webhook_deliveries);
  INSERT INTO event_log (log_offset, topic, entity_type, entity_urn, created_at, value, webhook_category)
    SELECT k.log_offset, 'PlatformEvent_v1', c.entity_type, c.entity_urn, c.created_at,
           '{"change":' || json_object('entityType', c.entity_type, 'entityUrn', c.entity_urn, 'category', c.category,
             'source', c.source, 'before', json(c.before_value), 'after', json(c.after_value), 'actor', c.actor,
             'createdAt', c.created_at) || '}',
           c.category
      FROM carried_events k JOIN change_events c ON c.id = k.id ORDER BY k.log_offset;
  DELETE FROM webhook_deliveries WHERE event_id NOT IN (SELECT id FROM carried_events);
  UPDATE webhook_deliveries SET event_id = -(SELECT log_offset FROM carried_events k WHERE k.id = webhook_deliveries.event_id);
  UPDATE webhook_deliveries SET event_id = -event_id;
  DROP TABLE carried_events;
  DROP TABLE change_events;
  `,
  // 21: Entity Change Events are derived from the change logs when PlatformEvent_v1 is read, not stored (a new
  // schema's events are one per field): an entry marks whether it derives them, and PlatformEvent_v1 reads its own
  // entries and those. Entries written before keep their stored events and derive none.
  `
  ALTER TABLE event_log ADD COLUMN derives_events INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX event_log_platform ON event_log (log_offset) WHERE topic = 'PlatformEvent_v1' OR derives_events = 1;
  `,
  // 22: what the search index costs a write (issue 31). search_fields becomes a WITHOUT ROWID table clustered on
  // (urn, field, value, aspect): the table is what the (urn, field, value) index was (facets, names, sorts and deletes
  // seek it the same way), so each value is one b-tree entry fewer, and the rowid table goes. Rows already indexed are
  // copied in that order (one identical value twice in one aspect is kept once: no reader counts it twice); a build
  // under way keeps its cursor in settings and carries on into the new table.
  `
  CREATE TABLE search_fields_clustered (
    urn TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    aspect TEXT NOT NULL,
    folded TEXT NOT NULL,
    num REAL,
    is_name INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (urn, field, value, aspect)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO search_fields_clustered (urn, field, value, aspect, folded, num, is_name)
    SELECT urn, field, value, aspect, folded, num, is_name FROM search_fields ORDER BY urn, field, value, aspect;
  DROP TABLE search_fields;
  ALTER TABLE search_fields_clustered RENAME TO search_fields;
  CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn);
  CREATE INDEX search_fields_by_number ON search_fields (field, num) WHERE num IS NOT NULL;
  CREATE INDEX search_fields_names ON search_fields (folded) WHERE field IN ('_entityName', '_entityKeyName');
  `,
  // 23: search documents gained entries (structuredProperties.<id>, one per assigned value): the search index's build
  // restarts over every stored aspect, in batches after the start while the index answers (SEARCH_REINDEX_MIGRATIONS).
  `SELECT 1;`,
  // 24: a word search's matches without a read of search_text per match (issue 31). Each text row's id names its
  // entity and its slot: id = doc * 65536 + slot, where search_docs numbers the entities the index holds text for and
  // search_slots numbers each (aspect, field, boost, queried-by-default) a text row has. FTS5 answers a word with
  // rowids, so the entity and the boost come from the rowid itself (a seek of the small slot table), not from a
  // random read of the content row (37,000 of them for a common word in 100,000 entities: 116 ms of 122). The rows
  // drop their urn, aspect, field, boost and flag columns (the id says them) and the index on them. Rows already
  // indexed are renumbered here, and FTS5 rebuilt over them.
  `
  CREATE TABLE search_docs (id INTEGER PRIMARY KEY, urn TEXT NOT NULL UNIQUE, entity_type TEXT NOT NULL);
  CREATE TABLE search_slots (
    id INTEGER PRIMARY KEY,
    aspect TEXT NOT NULL,
    field TEXT NOT NULL,
    boost REAL NOT NULL,
    by_default INTEGER NOT NULL,
    UNIQUE (aspect, field, boost, by_default)
  );
  INSERT INTO search_docs (urn, entity_type)
    SELECT e.urn, e.entity_type FROM entities e WHERE e.urn IN (SELECT urn FROM search_text) ORDER BY e.urn;
  INSERT INTO search_slots (aspect, field, boost, by_default)
    SELECT DISTINCT aspect, field, boost, by_default FROM search_text ORDER BY aspect, field;
  CREATE TABLE search_text_by_doc (id INTEGER PRIMARY KEY, words TEXT NOT NULL);
  INSERT INTO search_text_by_doc (id, words)
    SELECT d.id * 65536 + s.id, t.words FROM search_text t
      JOIN search_docs d ON d.urn = t.urn
      JOIN search_slots s ON s.aspect = t.aspect AND s.field = t.field AND s.boost = t.boost AND s.by_default = t.by_default
     ORDER BY 1;
  DROP TABLE search_words;
  DROP TABLE search_text;
  ALTER TABLE search_text_by_doc RENAME TO search_text;
  ${SEARCH_WORDS}
  INSERT INTO search_words (search_words) VALUES ('rebuild');
  `,
  // 25: facets counted over a large match set (issue 31). Every entity the index holds gets a document number (24 gave
  // one to those with words), and the values of the default facet fields (storage/search-facet-fields.ts) are kept
  // again as integer rows: (document, value number, aspect), the value numbered in search_facet_values. Counting the
  // facets of 18,000 matches in 100,000 entities read 162,000 search_fields seeks (about 400 ms); it reads 18,000
  // short ranges of a table a hundredth its size (about 30 ms). Filled here from the values already indexed.
  `
  INSERT INTO search_docs (urn, entity_type)
    SELECT e.urn, e.entity_type FROM entities e
     WHERE e.urn IN (SELECT urn FROM search_fields) AND e.urn NOT IN (SELECT urn FROM search_docs) ORDER BY e.urn;
  CREATE TABLE search_facet_values (id INTEGER PRIMARY KEY, field TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (field, value));
  CREATE TABLE search_facets (
    doc INTEGER NOT NULL,
    value_id INTEGER NOT NULL,
    aspect TEXT NOT NULL,
    PRIMARY KEY (doc, value_id, aspect)
  ) WITHOUT ROWID;
  INSERT INTO search_facet_values (field, value)
    SELECT DISTINCT field, value FROM search_fields WHERE field IN (${FACET_FIELDS.map((f) => `'${f}'`).join(', ')}) ORDER BY field, value;
  INSERT OR IGNORE INTO search_facets (doc, value_id, aspect)
    SELECT d.id, v.id, f.aspect FROM search_fields f
      JOIN search_docs d ON d.urn = f.urn
      JOIN search_facet_values v ON v.field = f.field AND v.value = f.value
     ORDER BY 1, 2, 3;
  `,
  // 26: a filter on the facet fields without a seek per candidate (issue 31). Each document's facet values, and
  // whether it is soft-deleted, are the keys of one row of an FTS5 table without content or positions
  // (storage/search-keys.ts: \`search_key\` is a function the store gives the connection); FTS5 intersects the lists of
  // documents of the values a filter names. Filled here from the facet rows and soft-deletion flags already indexed.
  `
  CREATE VIRTUAL TABLE search_keys USING fts5 (keys, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii');
  INSERT INTO search_keys (rowid, keys)
    SELECT k.doc, group_concat(k.key, ' ') FROM (
        SELECT f.doc AS doc, search_key(v.field, v.value) AS key FROM search_facets f JOIN search_facet_values v ON v.id = f.value_id
        UNION
        SELECT d.id, '${REMOVED_KEY}' FROM search_fields x JOIN search_docs d ON d.urn = x.urn WHERE ${REMOVED_ROWS}
      ) k
     GROUP BY k.doc ORDER BY k.doc;
  `,
  // 27: what shared values cost a write (issue 31). The fields of VALUE_KEY_FIELDS (storage/search-keys.ts: column
  // paths and has-value flags) leave the index on (field, folded, urn), which took one random entry per value; a
  // document's keys take their values and their presence instead, and search_key_values keeps each distinct
  // value once (what a CONTAIN or a wildcard reads before it asks the keys). The keys are written again for every
  // document, with those words, each document's from its own rows (seeks by urn in document order: no sort).
  `
  CREATE TABLE search_key_values (
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    folded TEXT NOT NULL,
    num REAL,
    PRIMARY KEY (field, value)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO search_key_values (field, value, folded, num)
    SELECT field, value, folded, num FROM search_fields WHERE field IN (${VALUE_FIELDS_SQL}) ORDER BY field, value;
  DROP TABLE search_keys;
  CREATE VIRTUAL TABLE search_keys USING fts5 (keys, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii');
  INSERT INTO search_keys (rowid, keys)
    SELECT doc, keys FROM (
      SELECT d.id AS doc, (
          SELECT group_concat(k.key, ' ') FROM (
            SELECT search_key(x.field, x.value) AS key FROM search_fields x WHERE x.urn = d.urn AND x.field IN (${KEY_ROWS_SQL})
            UNION ALL
            SELECT DISTINCT search_key(char(2) || x.field, '') FROM search_fields x WHERE x.urn = d.urn AND x.field IN (${VALUE_FIELDS_SQL})
            UNION ALL
            SELECT '${REMOVED_KEY}' FROM search_fields x WHERE x.urn = d.urn AND ${REMOVED_ROWS}
          ) k) AS keys
        FROM search_docs d)
     WHERE keys IS NOT NULL ORDER BY doc;
  DROP INDEX search_fields_by_value;
  CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn) WHERE ${valueIndexTerm('')};
  `,
  // 28: a filter's total without a row per match (issue 31). A facet value's key is its entity type's
  // (storage/search-keys.ts: facetKey), and every document with keys holds its type's key, so the asked types are
  // part of the keys' expression and FTS5's answer is the count. The keys are written again for every document, as
  // by 27.
  TYPED_KEYS,
  // 29: a word's matches without a seek per match beyond its document row (issue 31). The document row says whether
  // the entity is soft-deleted and holds its folded names (sqlite/search-docs.ts), which a search read from
  // search_fields for every match: the soft-deletion flag by a seek each, the names by a join to every name with
  // the query's prefix.
  `
  ALTER TABLE search_docs ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE search_docs ADD COLUMN names TEXT NOT NULL DEFAULT '';
  UPDATE search_docs SET removed = 1 WHERE urn IN (SELECT urn FROM search_fields WHERE ${REMOVED_ROWS});
  ${FILL_DOC_NAMES_SQL};
  `,
  // 30: facets counted without a sort of every (match, value) pair (issue 31). Each document row lists the numbers of
  // its facet values (search_docs.facets, sqlite/facet-tally.ts), written with its keys from the values search_fields
  // holds; a search joins its matches' lists and counts them in one pass. The facet rows of migration 25 go: a
  // facet count read a row per match and value and sorted them all (a word in 18,000 of 100,000 entities with its page,
  // total and 11 facets, the store alone: 62-75 -> 39-40 ms).
  `
  ALTER TABLE search_docs ADD COLUMN facets TEXT NOT NULL DEFAULT '';
  UPDATE search_docs AS d SET facets = t.facets FROM (
      SELECT doc, group_concat(value_id, ' ' ORDER BY value_id) AS facets FROM (SELECT DISTINCT doc, value_id FROM search_facets) GROUP BY doc) t
    WHERE d.id = t.doc;
  DROP TABLE search_facets;
  `,
];

/** The migration that clusters search_fields on (urn, field, value, aspect). */
export const CLUSTERED_SEARCH_FIELDS_MIGRATION = 22;

/** The migration that gives each search document its keys (storage/search-keys.ts). */
export const SEARCH_KEYS_MIGRATION = 26;

/** The migration that finds the values of VALUE_KEY_FIELDS through the keys (storage/search-keys.ts). */
export const VALUE_KEYS_MIGRATION = 27;

/** The migration that gives each document its entity type's key (storage/search-keys.ts). */
export const TYPE_KEYS_MIGRATION = 28;

/** The migration that gives each document row its soft-deletion flag and names (sqlite/search-docs.ts). */
export const DOC_FLAGS_MIGRATION = 29;

/** The migration that gives each document row the numbers of its facet values (sqlite/facet-tally.ts). */
export const DOC_FACETS_MIGRATION = 30;

/** The migration that creates the search index; the store backfills it from stored aspects in the same transaction. */
export const SEARCH_MIGRATION = 16;

/** The migrations after which the search index's build restarts over every stored aspect: its creation, and a change of what documents hold. */
export const SEARCH_REINDEX_MIGRATIONS: ReadonlySet<number> = new Set([SEARCH_MIGRATION, 23]);

/** The migration that creates the relationship index; the store backfills it from stored aspects in the same transaction. */
export const RELATIONSHIPS_MIGRATION = 7;

/** DDL of one day partition of a timeseries index; keyed by time so inserts append. */
export const partitionTableSql = (table: string): string => `
  CREATE TABLE IF NOT EXISTS "${table}" (
    ts INTEGER NOT NULL,
    doc_id TEXT NOT NULL,
    urn TEXT NOT NULL,
    event TEXT NOT NULL,
    system_metadata TEXT,
    PRIMARY KEY (ts, doc_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS "${table}_urn" ON "${table}" (urn, ts);
`;
