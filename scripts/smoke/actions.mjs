// DataHub Actions beside the server, for the smoke directories that need it (`tests/actions`): DataHub's CI runs them
// with its `datahub-actions` container up, running the system actions of its image (docker/datahub-actions/config/).
// Here the same recipe, read from the mirror's HEAD, runs with the client environment's `datahub-actions`
// (acryl-datahub-actions, pinned in requirements.txt), its Kafka source replaced by the `datahub-cloud` one that polls
// the server's events API on the same topics, and the suite's own settings for it
// (smoke-test/test_resources/actions/actions.env, which DataHub's CI gives that container).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Smoke directories whose tests wait for an action to react, and the system actions they need. */
const NEEDS = [{ prefix: 'tests/actions', configs: ['doc_propagation_action.yaml'] }];

/** The actions a target needs running, by their recipes' names in docker/datahub-actions/config/. */
export const actionsFor = (target) => NEEDS.find((n) => target === n.prefix || target.startsWith(`${n.prefix}/`))?.configs ?? [];

/** KEY=VALUE lines, without comments and blank lines. */
function envFile(file) {
  if (!fs.existsSync(file)) return {};
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim());
  return Object.fromEntries(
    lines.filter((l) => l && !l.startsWith('#') && l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/**
 * The recipe as JSON: DataHub's YAML with its source and server replaced (the source reads the new server's log from
 * its start, so nothing the suite writes while the pipeline starts is missed) (its `${VAR:-default}` references are kept,
 * for datahub-actions to expand from the environment as it does in DataHub's container).
 */
function recipe(python, yamlText, server, token) {
  const program = `
import json, sys, yaml
config = yaml.safe_load(sys.stdin.read())
topics = config["source"]["config"].get("topic_routes", {})
config["source"] = {"type": "datahub-cloud", "config": {"topics": [topics.get(k, d) for k, d in (("pe", "PlatformEvent_v1"), ("mcl", "MetadataChangeLog_Versioned_v1"))], "lookback_days": 1}}
config["datahub"] = {"server": sys.argv[1], "token": sys.argv[2]}
print(json.dumps(config))
`;
  const r = spawnSync(python, ['-c', program, server, token], { input: yamlText, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reading DataHub's actions recipe: ${r.stderr.trim()}`);
  // The topic routes are written with defaults (${METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME:-...}): the topic's name.
  return r.stdout.replace(/\$\{[A-Z_]+_TOPIC_NAME:-([\w]+)\}/g, '$1');
}

/**
 * Starts the actions `configs` against the server (its URL, a token of the root user) and returns how to stop them;
 * their output goes to <dir>/actions-<name>.log.
 */
export function startActions({ root, mirror, suite, dir, configs, url, token }) {
  const bin = path.join(root, '.venv-datahub/bin');
  const cli = path.join(bin, 'datahub-actions');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: the client environment (npm run setup:clients) has DataHub Actions`);
  const env = {
    ...process.env,
    DATAHUB_TELEMETRY_ENABLED: 'false',
    ...envFile(path.join(suite, 'test_resources/actions/actions.env')),
  };
  const children = configs.map((name) => {
    const yamlText = spawnSync('git', ['--git-dir', mirror, 'show', `HEAD:docker/datahub-actions/config/${name}`], { encoding: 'utf8' });
    if (yamlText.status !== 0) throw new Error(`docker/datahub-actions/config/${name} is not in the mirror: ${yamlText.stderr.trim()}`);
    const file = path.join(dir, `actions-${name.replace(/\.yaml$/, '')}.json`);
    fs.writeFileSync(file, recipe(path.join(bin, 'python'), yamlText.stdout, url, token));
    const log = fs.openSync(path.join(dir, `actions-${name.replace(/\.yaml$/, '')}.log`), 'w');
    const child = spawn(cli, ['actions', 'run', '-c', file], { env, stdio: ['ignore', log, log] });
    return { child, log, exited: new Promise((resolve) => child.on('exit', resolve)) };
  });
  return async () => {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    for (const { child, log, exited } of children) {
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
      fs.closeSync(log);
    }
  };
}
