export { InvitedPage as default } from './InvitationsPage';
