import { str } from '../../../openapi/builders/shorthand.js';

/** Port fields the Service and Endpoints schemas share. */

export const PROTOCOL = str('Network protocol: TCP, UDP or SCTP. Defaults to TCP.', { enum: ['SCTP', 'TCP', 'UDP'] });

export const APP_PROTOCOL = str('Application protocol of the port, e.g. "http" or a domain-prefixed name.');
