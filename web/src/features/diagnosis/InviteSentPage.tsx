export { InviteSentPage as default } from './InvitationsPage';
