import { MessageThread } from '../../components/ui/MessageThread';
import { useCaseMessages, useDeleteMessage, usePostMessage } from './api';

/** The message thread of a case, as the site and the experts see it. */
export function CaseMessages({ caseId, height }: { caseId: number; height?: number | string }) {
  const msgs = useCaseMessages(caseId);
  const post = usePostMessage();
  const del = useDeleteMessage();
  return (
    <MessageThread
      caseId={caseId}
      messages={msgs.data}
      loading={msgs.isLoading}
      sending={post.isPending}
      onSend={(content) => post.mutateAsync({ id: caseId, content })}
      onDelete={(id) => del.mutateAsync(id)}
      height={height}
    />
  );
}
