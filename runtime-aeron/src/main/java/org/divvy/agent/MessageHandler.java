package org.divvy.agent;

import org.agrona.DirectBuffer;

/**
 * What a mechanism registers for one message type: called on the agent thread with a frame whose
 * header and body were checked (the registered flyweight can read it without further bounds checks) and
 * whose sender passed the membership cut rule unless the type was registered for any sender.
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * @param senderId the header's sender id.
     * @param buffer   holds the frame only for the duration of the call: decode or copy what is needed.
     * @return work done for the computation (a job given or adopted, a result applied, a member
     * changed): more than 0 keeps the node out of deep idle; 0 for housekeeping (a heartbeat, a steal
     * that found nothing).
     */
    int onMessage(int senderId, DirectBuffer buffer, int offset, int length);
}
