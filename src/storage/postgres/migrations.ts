/**
 * Versioned schema migrations for the PostgreSQL adapter, applied in order on
 * start under an advisory lock, so several Almanac processes can start at once.
 */
import { AUTH_CHANGE_TRIGGERS, AUTH_CHANNEL } from '../auth-change-sql.ts';
import { FACET_FIELDS } from '../search-facet-fields.ts';
import { facetListAggSql } from './facet-lists.ts';
import { DOC_WORDS_FUNCTIONS_SQL, docNamesSql, docWordsSql } from './search-docs.ts';
import {
  docKeySourcesSql,
  docKeysAggSql,
  KEY_SQL,
  keySourcesSql,
  REMOVED_KEY,
  REMOVED_ROWS,
  rowKeySql,
  typeKeySql,
  VALUE_FIELDS_SQL,
  valueIndexTerm,
} from '../search-keys.ts';

export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE entities (
    urn TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL,
    created_on BIGINT NOT NULL,
    created_by TEXT NOT NULL
  );
  CREATE INDEX entities_by_type ON entities (entity_type, urn);
  CREATE TABLE aspects (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    version BIGINT NOT NULL,
    entity_type TEXT NOT NULL,
    metadata JSONB NOT NULL,
    system_metadata JSONB,
    created_on BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (urn, aspect, version)
  );
  CREATE TABLE ts_indices (
    id SERIAL PRIMARY KEY,
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    UNIQUE (entity_type, aspect)
  );
  CREATE TABLE ts_partitions (
    index_id INTEGER NOT NULL,
    start_ms BIGINT NOT NULL,
    row_count BIGINT NOT NULL,
    PRIMARY KEY (index_id, start_ms)
  );
  CREATE TABLE access_tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    actor_urn TEXT NOT NULL,
    owner_urn TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT
  );
  CREATE INDEX access_tokens_by_owner ON access_tokens (owner_urn);
  `,
  // Users, roles and sign-in: kept out of the aspect tables so that no ingestion can grant a role or read a hash.
  `
  CREATE TABLE role_assignments (
    actor_urn TEXT PRIMARY KEY,
    role_urn TEXT NOT NULL,
    assigned_by TEXT NOT NULL,
    assigned_at BIGINT NOT NULL
  );
  CREATE TABLE user_credentials (
    user_urn TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE login_failures (
    username TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure_at BIGINT NOT NULL
  );
  CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);
  `,
  // Background tasks (timeseries truncation). The partial unique index lets only
  // one truncation run per index, whichever process starts it.
  `
  CREATE TABLE tasks (
    number BIGSERIAL PRIMARY KEY,
    node_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created_by TEXT NOT NULL,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    cutoff_ms BIGINT NOT NULL,
    strategy TEXT NOT NULL,
    batch_size INTEGER NOT NULL,
    timeout_seconds BIGINT,
    requests_per_second DOUBLE PRECISION,
    total_rows BIGINT NOT NULL,
    rows_to_delete BIGINT NOT NULL,
    rows_deleted BIGINT NOT NULL DEFAULT 0,
    batches BIGINT NOT NULL DEFAULT 0,
    partitions_dropped BIGINT NOT NULL DEFAULT 0,
    throttled_ms BIGINT NOT NULL DEFAULT 0,
    freed_bytes BIGINT NOT NULL DEFAULT 0,
    size_bytes_before BIGINT,
    size_bytes_after BIGINT,
    reclaimed_bytes BIGINT,
    started_at BIGINT NOT NULL,
    ended_at BIGINT,
    heartbeat_at BIGINT NOT NULL,
    error TEXT,
    cancel_requested BOOLEAN NOT NULL DEFAULT false
  );
  CREATE UNIQUE INDEX tasks_one_running_per_index ON tasks (kind, entity_type, aspect) WHERE state = 'running';
  `,
  // Day partitions become plain tables routed by ts_partitions, so a truncation can retire whole days with one
  // metadata change (a declarative partition costs a DETACH or a DROP each) and drop their tables later, listed in
  // ts_retired. A day written again gets a new generation from the sequence: names are never reused.
  `
  ALTER TABLE ts_partitions ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
  CREATE SEQUENCE ts_generations;
  CREATE TABLE ts_retired (
    index_id INTEGER NOT NULL,
    start_ms BIGINT NOT NULL,
    generation BIGINT NOT NULL,
    row_count BIGINT NOT NULL,
    retired_at BIGINT NOT NULL,
    -- The truncation task that retired it, whose reclaim drops it; null when no task did.
    task_number BIGINT,
    PRIMARY KEY (index_id, start_ms, generation)
  );
  DO $$
  DECLARE r record;
  BEGIN
    FOR r IN
      SELECT parent.relname AS parent, child.relname AS child
        FROM pg_inherits i
        JOIN pg_class parent ON parent.oid = i.inhparent
        JOIN pg_class child ON child.oid = i.inhrelid
       WHERE parent.relnamespace = current_schema()::regnamespace AND parent.relkind = 'p' AND parent.relname ~ '^ts_[0-9]+$'
    LOOP
      -- The partition keeps its own copies of the parent's primary key and (urn, ts) index.
      EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', r.parent, r.child);
    END LOOP;
    FOR r IN
      SELECT relname FROM pg_class
       WHERE relnamespace = current_schema()::regnamespace AND relkind = 'p' AND relname ~ '^ts_[0-9]+$'
    LOOP
      EXECUTE format('DROP TABLE %I', r.relname);
    END LOOP;
  END $$;
  `,
  // Soft-deleted entities by type, for search and datahub-gc: only the removed status aspects are in it.
  `
  CREATE INDEX aspects_soft_deleted ON aspects (entity_type, urn)
    WHERE aspect = 'status' AND version = 0 AND (metadata->>'removed') = 'true';
  `,
  // The run that wrote each aspect version, in a column of its own: re-sending an unchanged value rewrites the latest
  // version's system_metadata (so an index on its runId would move) but not who wrote the value. Rows written before
  // take the runId their system_metadata holds. The partial index serves a run's latest versions and the run list.
  `
  ALTER TABLE aspects ADD COLUMN run_id TEXT;
  UPDATE aspects SET run_id = system_metadata ->> 'runId' WHERE jsonb_typeof(system_metadata -> 'runId') = 'string';
  CREATE INDEX aspects_by_run ON aspects (run_id, urn, aspect, created_on) WHERE version = 0;
  `,
  // The relationship index: one row per edge an aspect declares, keyed in DataHub's scroll order; read one hop at a
  // time by source (the key) or by destination, replaced by owner and aspect. soft_deletions marks entities whose
  // status is removed. The store fills both from the stored aspects in this migration's transaction (RELATIONSHIPS_MIGRATION).
  `
  -- Byte order ("C"), as SQLite's: both backends page through relationships in the same order.
  CREATE TABLE relationships (
    source_urn TEXT COLLATE "C" NOT NULL,
    destination_urn TEXT COLLATE "C" NOT NULL,
    relationship_type TEXT COLLATE "C" NOT NULL,
    owner_urn TEXT COLLATE "C" NOT NULL,
    aspect TEXT COLLATE "C" NOT NULL,
    source_type TEXT NOT NULL,
    destination_type TEXT NOT NULL,
    via_urn TEXT COLLATE "C",
    -- Both read paths cover every column, so a walk over thousands of edges reads indexes only.
    PRIMARY KEY (source_urn, destination_urn, relationship_type, owner_urn, aspect) INCLUDE (via_urn, source_type, destination_type)
  );
  CREATE INDEX relationships_incoming ON relationships (destination_urn, source_urn, relationship_type, owner_urn, aspect) INCLUDE (via_urn, source_type, destination_type);
  CREATE INDEX relationships_by_owner ON relationships (owner_urn, aspect);
  CREATE TABLE soft_deletions (
    urn TEXT COLLATE "C" NOT NULL,
    aspect TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (urn, aspect)
  );
  `,
  // Users: a session epoch per user (ending sessions raises it; it outlives the user, so a re-created user revives no
  // session), one invite token per role (only its nonce: the token is derived from it and the signing key), and
  // sign-in failures counted per username and source address, so a third party cannot lock a user out.
  `
  CREATE TABLE user_access (
    user_urn TEXT PRIMARY KEY,
    session_epoch BIGINT NOT NULL
  );
  CREATE TABLE invite_tokens (
    role_key TEXT PRIMARY KEY,
    nonce TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    created_by TEXT NOT NULL
  );
  CREATE TABLE sign_in_failures (
    username TEXT NOT NULL,
    address TEXT NOT NULL,
    failures INTEGER NOT NULL,
    last_failure_at BIGINT NOT NULL,
    PRIMARY KEY (username, address)
  );
  CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_failure_at);
  -- Replaced by sign_in_failures.
  DROP TABLE login_failures;
  `,
  // A counter per change-counted entity type (GrantBasis in ports/identity.ts), raised by triggers on every committed change to any
  // aspect row of it, whatever the path (write, delete, rollback): readers cache what they derive from those
  // entities (the policies) and compare one counter per request instead of reading them all again. The WHEN clauses
  // keep every other aspect write from calling the function at all.
  `
  CREATE TABLE entity_type_changes (entity_type TEXT PRIMARY KEY, changes BIGINT NOT NULL);
  INSERT INTO entity_type_changes (entity_type, changes) VALUES ('dataHubPolicy', 0);
  CREATE FUNCTION count_entity_type_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE entity_type_changes SET changes = changes + 1 WHERE entity_type = TG_ARGV[0];
    RETURN NULL;
  END $$;
  CREATE TRIGGER policy_aspect_inserted AFTER INSERT ON aspects FOR EACH ROW WHEN (NEW.entity_type = 'dataHubPolicy')
    EXECUTE FUNCTION count_entity_type_change('dataHubPolicy');
  CREATE TRIGGER policy_aspect_updated AFTER UPDATE ON aspects FOR EACH ROW
    WHEN (NEW.entity_type = 'dataHubPolicy' OR OLD.entity_type = 'dataHubPolicy') EXECUTE FUNCTION count_entity_type_change('dataHubPolicy');
  CREATE TRIGGER policy_aspect_deleted AFTER DELETE ON aspects FOR EACH ROW WHEN (OLD.entity_type = 'dataHubPolicy')
    EXECUTE FUNCTION count_entity_type_change('dataHubPolicy');
  `,
  // Periodic jobs run once across processes (ports/schedules.ts): one row per occurrence of a job, claimed with a
  // lease; the primary key is what lets one claimant win.
  `
  CREATE TABLE scheduled_runs (
    job TEXT NOT NULL,
    due_at BIGINT NOT NULL,
    node_id TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    lease_until BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    finished_at BIGINT,
    outcome TEXT,
    error TEXT,
    PRIMARY KEY (job, due_at)
  );
  `,
  // Tasks of any kind (ports/tasks.ts): what a task was asked to do and how far it got are JSON its kind reads, and
  // an exclusive key replaces the truncation-only unique index. Existing truncation tasks keep their numbers and
  // every value, moved into params and progress under the names the truncation code reads.
  `
  ALTER TABLE tasks ADD COLUMN exclusive_key TEXT, ADD COLUMN params JSONB, ADD COLUMN progress JSONB;
  UPDATE tasks SET exclusive_key = kind || ':' || entity_type || ':' || aspect,
    params = jsonb_build_object('entityType', entity_type, 'aspect', aspect, 'cutoffMillis', cutoff_ms, 'strategy', strategy,
                                'batchSize', batch_size, 'timeoutSeconds', timeout_seconds, 'requestsPerSecond', requests_per_second,
                                'totalRows', total_rows, 'rowsToDelete', rows_to_delete),
    progress = jsonb_build_object('rowsDeleted', rows_deleted, 'batches', batches, 'partitionsDropped', partitions_dropped,
                                  'throttledMillis', throttled_ms, 'freedBytes', freed_bytes, 'sizeBytesBefore', size_bytes_before,
                                  'sizeBytesAfter', size_bytes_after, 'reclaimedBytes', reclaimed_bytes);
  ALTER TABLE tasks ALTER COLUMN params SET NOT NULL, ALTER COLUMN progress SET NOT NULL;
  DROP INDEX tasks_one_running_per_index;
  ALTER TABLE tasks DROP COLUMN entity_type, DROP COLUMN aspect, DROP COLUMN cutoff_ms, DROP COLUMN strategy,
    DROP COLUMN batch_size, DROP COLUMN timeout_seconds, DROP COLUMN requests_per_second, DROP COLUMN total_rows,
    DROP COLUMN rows_to_delete, DROP COLUMN rows_deleted, DROP COLUMN batches, DROP COLUMN partitions_dropped,
    DROP COLUMN throttled_ms, DROP COLUMN freed_bytes, DROP COLUMN size_bytes_before, DROP COLUMN size_bytes_after,
    DROP COLUMN reclaimed_bytes;
  CREATE UNIQUE INDEX tasks_one_running_per_key ON tasks (exclusive_key) WHERE state = 'running';
  `,
  // Retention (ports/retention.ts): policies as rows every process reads, and an index of earlier versions alone, so
  // a policy's pass and its preview read those and never the latest values.
  `
  CREATE TABLE retention_policies (
    entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL,
    max_versions INTEGER,
    max_age_seconds BIGINT,
    source TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (entity_type, aspect)
  );
  CREATE INDEX aspects_history ON aspects (entity_type, aspect, urn, version) WHERE version > 0;
  `,
  // Row counts per 10-minute bucket of each day partition (storage/bucket-sql.ts): a dry run's count inside the
  // boundary day reads them instead of counting up to a day of rows. Days written before have none until first counted.
  `
  CREATE TABLE ts_buckets (
    index_id INTEGER NOT NULL,
    start_ms BIGINT NOT NULL,
    generation BIGINT NOT NULL,
    bucket INTEGER NOT NULL,
    row_count BIGINT NOT NULL,
    PRIMARY KEY (index_id, start_ms, generation, bucket)
  );
  ALTER TABLE ts_partitions ADD COLUMN bucketed INTEGER NOT NULL DEFAULT 0;
  `,
  // A notification on every committed change that can alter a request's authentication or grant basis
  // (storage/auth-change-sql.ts): each process caches what it read while it listens (postgres/auth-changes.ts).
  // Notifications are sent at commit, and the same one twice in a transaction is sent once.
  `
  CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('${AUTH_CHANNEL}', '');
    RETURN NULL;
  END $$;
  ${AUTH_CHANGE_TRIGGERS.map(
    (t) => `CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} FOR EACH ROW${t.when ? ` WHEN (${t.when})` : ''}
    EXECUTE FUNCTION notify_auth_change();`,
  ).join('\n  ')}
  `,
  // One aspect's new latest value in one call (postgres/aspects.ts: the write of a single aspect that indexes no
  // relationship and has no retention rule), so such a write costs one round trip: the required entities are checked
  // and kept from deletion, the latest row locked, and the old value kept as a new version unless it is the same. Each
  // statement takes a fresh snapshot, so the value compared is the one locked, as in the transaction it replaces.
  `
  CREATE FUNCTION put_latest_aspect(p_urn TEXT, p_aspect TEXT, p_entity_type TEXT, p_metadata JSONB, p_system_metadata JSONB,
                                    p_now BIGINT, p_actor TEXT, p_run_id TEXT, p_required TEXT[])
  RETURNS TABLE (outcome TEXT, previous JSONB, previous_version BIGINT, missing TEXT[]) LANGUAGE plpgsql AS $$
  DECLARE
    v_current JSONB;
    v_missing TEXT[];
    v_version BIGINT;
  BEGIN
    IF cardinality(p_required) > 0 THEN
      PERFORM 1 FROM entities WHERE urn = ANY (p_required) FOR KEY SHARE;
      SELECT array_agg(r) INTO v_missing FROM unnest(p_required) AS r WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.urn = r);
      IF v_missing IS NOT NULL THEN
        RETURN QUERY SELECT 'missing'::TEXT, NULL::JSONB, NULL::BIGINT, v_missing;
        RETURN;
      END IF;
    END IF;
    LOOP
      SELECT metadata INTO v_current FROM aspects WHERE urn = p_urn AND aspect = p_aspect AND version = 0 FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO entities (urn, entity_type, created_on, created_by) VALUES (p_urn, p_entity_type, p_now, p_actor) ON CONFLICT DO NOTHING;
        INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
        VALUES (p_urn, p_aspect, 0, p_entity_type, p_metadata, p_system_metadata, p_now, p_actor, p_run_id) ON CONFLICT DO NOTHING;
        IF FOUND THEN
          RETURN QUERY SELECT 'created'::TEXT, NULL::JSONB, NULL::BIGINT, NULL::TEXT[];
          RETURN;
        END IF;
        -- Another writer created it first: replace its value.
        CONTINUE;
      END IF;
      IF v_current = p_metadata THEN
        -- Same value again: the sighting is recorded, not a new version; the value's run stays the one that wrote it.
        UPDATE aspects SET system_metadata = p_system_metadata WHERE urn = p_urn AND aspect = p_aspect AND version = 0;
        RETURN QUERY SELECT 'unchanged'::TEXT, NULL::JSONB, NULL::BIGINT, NULL::TEXT[];
        RETURN;
      END IF;
      INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
      SELECT urn, aspect, (SELECT MAX(version) + 1 FROM aspects WHERE urn = p_urn AND aspect = p_aspect), entity_type, metadata,
             system_metadata, created_on, created_by, run_id
        FROM aspects WHERE urn = p_urn AND aspect = p_aspect AND version = 0
      RETURNING version INTO v_version;
      UPDATE aspects SET metadata = p_metadata, system_metadata = p_system_metadata, created_on = p_now, created_by = p_actor, run_id = p_run_id
       WHERE urn = p_urn AND aspect = p_aspect AND version = 0;
      RETURN QUERY SELECT 'updated'::TEXT, v_current, v_version, NULL::TEXT[];
      RETURN;
    END LOOP;
  END $$;
  `, // Change events (ports/change-events.ts) as an outbox: triggers record each change of a deprecation and each end of a
  // truncation or retention task in the transaction that makes it, and fan each event out to the webhook
  // subscriptions it matches, so an event and its deliveries exist exactly when the change committed.
  `
  CREATE TABLE change_events (
    id BIGSERIAL PRIMARY KEY,
    entity_type TEXT NOT NULL,
    entity_urn TEXT NOT NULL,
    category TEXT NOT NULL,
    source TEXT NOT NULL,
    before_value JSONB,
    after_value JSONB NOT NULL,
    actor TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX change_events_by_time ON change_events (created_at);
  CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    sealed_secret TEXT NOT NULL,
    categories TEXT,
    entity_types TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    subscription_id TEXT NOT NULL,
    event_id BIGINT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until BIGINT,
    last_status INTEGER,
    last_error TEXT,
    delivered_at BIGINT,
    PRIMARY KEY (subscription_id, event_id)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
  CREATE FUNCTION record_deprecation_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at)
    VALUES (NEW.entity_type, NEW.urn, 'DEPRECATION', 'deprecation', CASE WHEN TG_OP = 'UPDATE' THEN OLD.metadata END, NEW.metadata,
            NEW.created_by, NEW.created_on);
    RETURN NULL;
  END $$;
  CREATE TRIGGER change_event_deprecation_inserted AFTER INSERT ON aspects FOR EACH ROW
    WHEN (NEW.aspect = 'deprecation' AND NEW.version = 0) EXECUTE FUNCTION record_deprecation_change();
  CREATE TRIGGER change_event_deprecation_updated AFTER UPDATE OF metadata ON aspects FOR EACH ROW
    WHEN (NEW.aspect = 'deprecation' AND NEW.version = 0 AND OLD.version = 0 AND NEW.metadata IS DISTINCT FROM OLD.metadata)
    EXECUTE FUNCTION record_deprecation_change();
  CREATE FUNCTION record_task_end() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at)
    VALUES ('dataProcessInstance', 'urn:li:dataProcessInstance:almanac-' || CASE NEW.kind WHEN 'truncateTimeseriesAspect' THEN 'truncation' ELSE NEW.kind END || '-' || NEW.number, 'RUN', 'task', NULL,
            jsonb_build_object('kind', NEW.kind, 'number', NEW.number, 'state', NEW.state, 'params', NEW.params,
                               'progress', NEW.progress, 'error', NEW.error, 'startedAt', NEW.started_at),
            NEW.created_by, COALESCE(NEW.ended_at, NEW.heartbeat_at));
    RETURN NULL;
  END $$;
  CREATE TRIGGER change_event_task_ended AFTER UPDATE OF state ON tasks FOR EACH ROW
    WHEN (OLD.state = 'running' AND NEW.state <> 'running' AND NEW.kind IN ('truncateTimeseriesAspect', 'retention'))
    EXECUTE FUNCTION record_task_end();
  CREATE FUNCTION fan_out_change_event() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at)
    SELECT s.id, NEW.id, 'pending', 0, NEW.created_at FROM webhook_subscriptions s
     WHERE (s.categories IS NULL OR strpos(s.categories, ',' || NEW.category || ',') > 0)
       AND (s.entity_types IS NULL OR strpos(s.entity_types, ',' || NEW.entity_type || ',') > 0);
    RETURN NULL;
  END $$;
  CREATE TRIGGER change_event_fan_out AFTER INSERT ON change_events FOR EACH ROW EXECUTE FUNCTION fan_out_change_event();
  `,
  // 17: the search index. Each aspect's exact values (filters, facets, sorts, names) in search_fields; each text
  // field's words in search_text, with a tsvector of them under a GIN index. Written with the aspect, in its
  // transaction; backfilled from stored aspects by this migration. pg_trgm, when the server lets the database create
  // it, indexes folded values for wildcard and substring filters; without it those read search_fields in full.
  `
  CREATE TABLE search_fields (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    folded TEXT NOT NULL,
    num DOUBLE PRECISION,
    is_name BOOLEAN NOT NULL DEFAULT false
  );
  CREATE INDEX search_fields_by_urn ON search_fields (urn, aspect);
  CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn);
  CREATE INDEX search_fields_by_number ON search_fields (field, num) WHERE num IS NOT NULL;
  CREATE TABLE search_text (
    urn TEXT NOT NULL,
    aspect TEXT NOT NULL,
    field TEXT NOT NULL,
    boost REAL NOT NULL,
    by_default BOOLEAN NOT NULL,
    words TEXT NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED
  );
  CREATE INDEX search_text_by_urn ON search_text (urn, aspect);
  CREATE INDEX search_text_words ON search_text USING GIN (tsv);
  DO $$
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXECUTE 'CREATE INDEX search_fields_trigram ON search_fields USING GIN (folded gin_trgm_ops)';
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): wildcard and substring search filters read search_fields in full', SQLERRM;
  END
  $$;
  `,
  // 18: audit events (issue 36): one row per sign-in, token, user, role, group or policy change; pruned by age.
  `
  CREATE TABLE audit_events (
    id BIGSERIAL PRIMARY KEY,
    ts BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    actor_urn TEXT NOT NULL,
    entity_urn TEXT,
    entity_type TEXT,
    aspect_name TEXT,
    details TEXT
  );
  CREATE INDEX audit_events_by_time ON audit_events (ts, id);
  `,
  // 19: change events are recorded by the adapter from each write's outcome, in the write's transaction (the
  // one-statement write included), as catalog/events/change-event-rules.ts says; the triggers of migration 16 go.
  `
  DROP TRIGGER change_event_deprecation_inserted ON aspects;
  DROP TRIGGER change_event_deprecation_updated ON aspects;
  DROP FUNCTION record_deprecation_change();
  DROP TRIGGER change_event_task_ended ON tasks;
  DROP FUNCTION record_task_end();
  DROP TRIGGER change_event_fan_out ON change_events;
  DROP FUNCTION fan_out_change_event();
  `,
  // 20: search at scale (issue 31). Per urn, its values by field: facets seek each match's values of a field, and a
  // page its name (deletes by urn and aspect read the urn's few rows). Names alone, under text_pattern_ops, for the
  // exact-name and name-prefix ranking tiers: LIKE 'prefix%' reads a range of it whatever the database's collation.
  `
  DROP INDEX search_fields_by_urn;
  CREATE INDEX search_fields_by_urn ON search_fields (urn, field);
  CREATE INDEX search_fields_names ON search_fields (folded text_pattern_ops) WHERE field IN ('_entityName', '_entityKeyName');
  `,
  // 21: the change log (issue 32). Offsets come from the one row of event_log_head, taken as a transaction's last
  // statement and held until its commit, so they are handed out in commit order with no gap (docs/architecture.md).
  // Webhooks deliver the log's DEPRECATION and RUN events (webhook_category), so their deliveries now name a log
  // offset and the change_events outbox goes. A delivery pending at the upgrade is carried over: its event becomes a
  // log entry (stored as the change it records, `{"change":...}`, which catalog/events/change-log.ts turns into the
  // same Entity Change Event the outbox sent), offsets 1..n in the events' order, and the delivery names that offset
  // (negated first, so no two deliveries of a subscription share an id mid-update). Finished deliveries go.
  `
  CREATE TABLE event_log (
    log_offset BIGINT PRIMARY KEY,
    topic TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    entity_urn TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    value TEXT NOT NULL,
    webhook_category TEXT
  );
  CREATE INDEX event_log_by_topic ON event_log (topic, log_offset);
  CREATE TABLE event_log_head (id INT PRIMARY KEY CHECK (id = 1), next BIGINT NOT NULL);
  DELETE FROM webhook_deliveries WHERE state <> 'pending';
  CREATE TEMP TABLE carried_events ON COMMIT DROP AS
    SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS log_offset FROM change_events WHERE id IN (SELECT event_id FROM webhook_deliveries);
  INSERT INTO event_log (log_offset, topic, entity_type, entity_urn, created_at, value, webhook_category)
    SELECT k.log_offset, 'PlatformEvent_v1', c.entity_type, c.entity_urn, c.created_at,
           '{"change":' || json_build_object('entityType', c.entity_type, 'entityUrn', c.entity_urn, 'category', c.category,
             'source', c.source, 'before', c.before_value, 'after', c.after_value, 'actor', c.actor,
             'createdAt', c.created_at)::text || '}',
           c.category
      FROM carried_events k JOIN change_events c ON c.id = k.id;
  INSERT INTO event_log_head SELECT 1, COALESCE(MAX(log_offset), 0) + 1 FROM carried_events;
  DELETE FROM webhook_deliveries WHERE event_id NOT IN (SELECT id FROM carried_events);
  UPDATE webhook_deliveries d SET event_id = -k.log_offset FROM carried_events k WHERE k.id = d.event_id;
  UPDATE webhook_deliveries SET event_id = -event_id;
  DROP TABLE change_events;
  `,
  // 22: search at scale (issue 31), after EXPLAIN (ANALYZE, BUFFERS): migration 20's indexes cover what they serve.
  // search_fields_by_urn carries the value (facets and a page's name read the index alone once it is vacuumed); the
  // names index carries the urn (the ranking tiers read no table row).
  `
  DROP INDEX search_fields_by_urn;
  CREATE INDEX search_fields_by_urn ON search_fields (urn, field) INCLUDE (value);
  DROP INDEX search_fields_names;
  CREATE INDEX search_fields_names ON search_fields (folded text_pattern_ops, urn) WHERE field IN ('_entityName', '_entityKeyName');
  `,
  // 23: Entity Change Events are derived from the change logs when PlatformEvent_v1 is read, not stored (a new
  // schema's events are one per field): an entry marks whether it derives them, and PlatformEvent_v1 reads its own
  // entries and those. Entries written before keep their stored events and derive none.
  `
  ALTER TABLE event_log ADD COLUMN derives_events SMALLINT NOT NULL DEFAULT 0;
  CREATE INDEX event_log_platform ON event_log (log_offset) WHERE topic = 'PlatformEvent_v1' OR derives_events = 1;
  `,
  // 24: search documents gained entries (structuredProperties.<id>, one per assigned value): the search index's build
  // restarts over every stored aspect, in batches after the start while the index answers (SEARCH_REINDEX_MIGRATIONS).
  `SELECT 1;`,
  // 25: facets counted over a large match set (issue 31). The values of the default facet fields
  // (storage/search-facet-fields.ts) are kept again in search_facets, a table of those values alone: a facet count
  // over 18,000 matches in 100,000 entities had PostgreSQL hash every facet value of search_fields, read by a
  // sequential scan of its 4.4 million rows (1.2 s); it reads 385,000 rows of a table a tenth its size. Filled here
  // from the values already indexed.
  `
  CREATE TABLE search_facets (urn TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, aspect TEXT NOT NULL);
  INSERT INTO search_facets (urn, field, value, aspect)
    SELECT DISTINCT urn, field, value, aspect FROM search_fields WHERE field IN (${FACET_FIELDS.map((f) => `'${f}'`).join(', ')});
  CREATE INDEX search_facets_by_urn ON search_facets (urn, aspect) INCLUDE (field, value);
  `,
  // 26: the change log's values compressed with LZ4 where the server has it (PostgreSQL 14+ built with lz4): a batch's
  // entry of timeseries events is one value of 15 to 40 kB, and pglz took a third of its insert's time (EXPLAIN
  // ANALYZE, bench events). Only values written from now on; older ones stay pglz, and both read.
  `
  DO $$
  BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
      ALTER TABLE event_log ALTER COLUMN value SET COMPRESSION lz4;
    END IF;
  END $$;
  `,
  // 27: a filter on the facet fields without a seek per candidate (issue 31). Each entity's facet values, and whether
  // it is soft-deleted, are the lexemes of one tsvector under GIN (storage/search-keys.ts); a filter of equalities on
  // them is one tsquery, and GIN intersects the values' lists of entities. The entity's type is kept beside them: a
  // filter's matches need no join to entities (which PostgreSQL, reckoning with random reads, makes a hash join over a
  // scan of every entity). Filled here from the facet rows and the soft-deletion flags already indexed.
  `
  CREATE TABLE search_keys (urn TEXT PRIMARY KEY, entity_type TEXT NOT NULL, keys TSVECTOR NOT NULL);
  INSERT INTO search_keys (urn, entity_type, keys)
    SELECT k.urn, e.entity_type, array_to_tsvector(array_agg(DISTINCT k.key)) FROM (
        SELECT urn, ${KEY_SQL} AS key FROM search_facets
        UNION ALL
        SELECT urn, '${REMOVED_KEY}' FROM search_fields WHERE ${REMOVED_ROWS}
      ) k
      JOIN entities e ON e.urn = k.urn
     GROUP BY k.urn, e.entity_type;
  CREATE INDEX search_keys_gin ON search_keys USING gin (keys);
  `,
  // 28: a filter's total without a row per match (issue 31). A facet value's key is its entity type's
  // (storage/search-keys.ts: facetKey), and every entity's keys hold its type's key, so the asked types are part of
  // the tsquery. The keys are written again for every entity from its facet rows and soft-deletion flag, and the GIN
  // index built after them rather than updated a million times.
  `
  DROP INDEX search_keys_gin;
  TRUNCATE search_keys;
  INSERT INTO search_keys (urn, entity_type, keys)
    SELECT k.urn, e.entity_type, array_to_tsvector(array_append(array_agg(DISTINCT ${rowKeySql('e.entity_type', 'k.field', 'k.value')}), ${typeKeySql('e.entity_type')}))
      FROM (${keySourcesSql('true')}) k
      JOIN entities e ON e.urn = k.urn
     GROUP BY k.urn, e.entity_type;
  CREATE INDEX search_keys_gin ON search_keys USING gin (keys);
  `,
  // 29: what shared values cost a write (issue 31), as SQLite's 27. The fields of VALUE_KEY_FIELDS
  // (storage/search-keys.ts: column paths and has-value flags, 61% of a catalog's rows in search_fields) leave the
  // index on (field, folded, urn) and the trigram index, which took random entries for each of them on every ingest;
  // an entity's keys take their values (up to MAX_VALUE_KEYS of them) and their presence instead, and search_key_values keeps each distinct value
  // once (what a CONTAIN or a wildcard reads before it asks the keys). The keys are written again for every entity,
  // and each index built after its rows. Written to run again over its own result.
  `
  CREATE TABLE IF NOT EXISTS search_key_values (
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    folded TEXT NOT NULL,
    num DOUBLE PRECISION,
    PRIMARY KEY (field, value)
  );
  INSERT INTO search_key_values (field, value, folded, num)
    SELECT DISTINCT ON (field, value) field, value, folded, num FROM search_fields WHERE field IN (${VALUE_FIELDS_SQL}) ORDER BY field, value
  ON CONFLICT (field, value) DO NOTHING;
  DROP INDEX search_keys_gin;
  TRUNCATE search_keys;
  INSERT INTO search_keys (urn, entity_type, keys)
    SELECT x.urn, e.entity_type, array_to_tsvector(array_append(${docKeysAggSql('e.entity_type')}, ${typeKeySql('e.entity_type')}))
      FROM (${docKeySourcesSql('true', 'search_facets')}) x
      JOIN entities e ON e.urn = x.urn
     GROUP BY x.urn, e.entity_type;
  CREATE INDEX search_keys_gin ON search_keys USING gin (keys);
  DROP INDEX search_fields_by_value;
  CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn) WHERE ${valueIndexTerm('')};
  DO $$
  BEGIN
    IF to_regclass('search_fields_trigram') IS NOT NULL THEN
      DROP INDEX search_fields_trigram;
      CREATE INDEX search_fields_trigram ON search_fields USING GIN (folded gin_trgm_ops) WHERE ${valueIndexTerm('')};
    END IF;
  END
  $$;
  `,
  // 30: facets counted from one list per entity (issue 31, as SQLite's 30). Each entity's values of the default facet
  // fields become one row of search_facet_lists (postgres/facet-lists.ts), read by one seek per match and counted by a
  // hash, where search_facets gave a row per value, sought, sorted and made distinct per match. Filled from
  // search_facets, which it drops: the keys read the facet values from search_fields since. An entity's list is kept
  // while the entity is, as the writes keep it.
  `
  CREATE TABLE search_facet_lists (urn TEXT NOT NULL, facets TEXT[] NOT NULL);
  INSERT INTO search_facet_lists (urn, facets)
    SELECT x.urn, ${facetListAggSql('true')} FROM search_facets x WHERE EXISTS (SELECT 1 FROM entities e WHERE e.urn = x.urn) GROUP BY x.urn;
  ALTER TABLE search_facet_lists ADD PRIMARY KEY (urn);
  DROP TABLE search_facets;
  `,
  // 31: a word's matches are rows of their own (issue 31, postgres/search-docs.ts). Each entity with words in fields
  // queried by default has one row of search_docs: its type, soft-deletion flag, names, list of facet values, and its
  // words under their fields' boosts as a tsvector under GIN. Filled from the rows already indexed, the GIN index built
  // after them.
  `
  ${DOC_WORDS_FUNCTIONS_SQL}
  CREATE TABLE search_docs (urn TEXT NOT NULL, entity_type TEXT NOT NULL, removed BOOLEAN NOT NULL, names TEXT, facets TEXT[], words TSVECTOR NOT NULL);
  INSERT INTO search_docs (urn, entity_type, removed, names, facets, words)
    SELECT urn, entity_type, removed, names, facets, words FROM (
      SELECT e.urn, e.entity_type, EXISTS (SELECT 1 FROM search_fields r WHERE r.urn = e.urn AND ${REMOVED_ROWS}) AS removed,
             ${docNamesSql('e.urn')} AS names, (SELECT l.facets FROM search_facet_lists l WHERE l.urn = e.urn) AS facets,
             ${docWordsSql('e.urn')} AS words
        FROM entities e) d
     WHERE words IS NOT NULL;
  ALTER TABLE search_docs ADD PRIMARY KEY (urn);
  CREATE INDEX search_docs_words ON search_docs USING gin (words);
  `,
];

/** The migration that gives each entity with words a document row (postgres/search-docs.ts). */
export const DOC_ROWS_MIGRATION = 31;

/** The migration that lists each entity's facet values on a row of its own (postgres/facet-lists.ts). */
export const FACET_LISTS_MIGRATION = 30;

/** The migration that gives each entity its search keys (storage/search-keys.ts). */
export const SEARCH_KEYS_MIGRATION = 27;

/** The migration that gives each entity's keys its type's key (storage/search-keys.ts). */
export const TYPE_KEYS_MIGRATION = 28;

/** The migration that finds the values of VALUE_KEY_FIELDS through the keys (storage/search-keys.ts). */
export const VALUE_KEYS_MIGRATION = 29;

/** The migration that creates the search index; the store backfills it from stored aspects in the same transaction. */
export const SEARCH_MIGRATION = 17;

/** The migrations after which the search index's build restarts over every stored aspect: its creation, and a change of what documents hold. */
export const SEARCH_REINDEX_MIGRATIONS: ReadonlySet<number> = new Set([SEARCH_MIGRATION, 24]);

/** The migration that creates the relationship index; the store backfills it from stored aspects in the same transaction. */
export const RELATIONSHIPS_MIGRATION = 7;

/** One generation of one day partition of a timeseries index: a plain table, keyed by time so inserts append. */
export const partitionTableSql = (table: string, withUrnIndex = true): string => `
  CREATE TABLE IF NOT EXISTS ${table} (
    ts BIGINT NOT NULL,
    doc_id TEXT NOT NULL,
    urn TEXT NOT NULL,
    event TEXT NOT NULL,
    system_metadata TEXT,
    PRIMARY KEY (ts, doc_id)
  );
  ${withUrnIndex ? urnIndexSql(table) : ''}
`;

export const urnIndexSql = (table: string): string => `CREATE INDEX IF NOT EXISTS ${table}_urn ON ${table} (urn, ts);`;
