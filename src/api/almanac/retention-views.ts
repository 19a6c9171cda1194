import type { RetentionPolicyRecord } from '../../storage/store.ts';
import { toPolicyInput } from '../../catalog/retention/retention-policy.ts';
import { formatTaskId } from '../../catalog/task-id.ts';
import type { RetentionRunRecord } from '../../catalog/retention/retention-record.ts';
import type { RetentionPreviewEntry } from '../../catalog/retention/retention-service.ts';
import type { RetentionPolicyWire, RetentionPreviewWire, RetentionRunWire } from '../wire/retention.ts';

export const policyView = (p: RetentionPolicyRecord): RetentionPolicyWire => ({
  ...toPolicyInput(p),
  source: p.source,
  updatedBy: p.updatedBy,
  updatedAt: p.updatedAt,
});

export const previewView = (e: RetentionPreviewEntry): RetentionPreviewWire => ({ ...e, sharePercent: Math.round(e.sharePercent * 100) / 100 });

export const runView = (r: RetentionRunRecord): RetentionRunWire => ({
  id: formatTaskId(r),
  trigger: r.trigger,
  policy: r.policy,
  state: r.state,
  confirm: r.confirm,
  createdBy: r.createdBy,
  startedAt: r.startedAt,
  endedAt: r.endedAt,
  error: r.error,
  versionsDeleted: r.versionsDeleted,
  outcomes: r.outcomes,
});
