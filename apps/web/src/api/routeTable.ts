/** The route table, imported on demand by the HTTP client (see call in http.ts). */
export { routes } from '@meterportal/protocol';
