/** What a test in another process needs to stop and start the replica (JSON-serialisable). */
export interface ReplicaClusterControl {
  readonly bin: string;
  readonly root: string;
}
export interface ReplicaCluster {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  readonly control: ReplicaClusterControl;
  stop(): Promise<void>;
  readonly unavailable?: undefined;
}
export function startReplicaCluster(options?: { readonly tmpDir?: string }): Promise<ReplicaCluster | { readonly unavailable: string }>;
export function replicaControl(control: ReplicaClusterControl, action: 'stop' | 'start'): Promise<void>;
