/**
 * The corpUserInfo DataHub's bootstrap gives its root user, urn:li:corpuser:datahub (metadata-service/configuration
 * bootstrap_mcps/root-user.yaml). DataHub's login-mode bootstrap, and clients that hide system users, read `system`.
 */
export const ROOT_USER_INFO = Object.freeze({ active: true, displayName: 'DataHub', title: 'DataHub Root User', system: true });
