import { MessageThread as Thread } from '../../components/ui/MessageThread';
import { useCaseMessages, useDeleteMessage, usePostMessage } from './api';

/** The message thread of a case on the hospital's screens. */
export function MessageThread({ caseId, height = 420 }: { caseId: number; height?: number | string }) {
  const msgs = useCaseMessages(caseId);
  const post = usePostMessage();
  const del = useDeleteMessage();
  return (
    <Thread
      caseId={caseId}
      messages={msgs.data ?? undefined}
      loading={msgs.isLoading}
      sending={post.isPending}
      onSend={(content) => post.mutateAsync({ id: caseId, content })}
      onDelete={(id) => del.mutateAsync(id)}
      height={height}
    />
  );
}
