/**
 * The login-failure report answers at most this many rows, newest first (`POST /api/dashboard-report`);
 * the login-failure sheet (`GET /api/tenant/sheets/login_failures`) has them all (contracts/openapi.yaml).
 */
export const LOGIN_FAILURE_REPORT_ROWS = 10_000;
