/**
 * Security: who is heard. Every frame a node sends carries a trailer with a Poly1305-AES tag under a key
 * derived from the {@link org.divvy.ClusterSecret}, the instance id of its stream (one per link and publication)
 * and a sequence number (the tag's nonce); run-key frames are bound to their receiver (its endpoint is part of
 * the key's derivation);
 * {@link org.divvy.security.FrameAuthenticator} signs frames as the transport offers them and checks
 * every received one before anything else reads it (key, tag, stream order), counting what it drops per
 * reason in {@link org.divvy.security.AuthenticationCounters}. Two keys: the join key (the secret alone)
 * for the join handshake only, and the run key (the secret and the run id the registry chose), so frames of
 * another run that used the same secret are not heard either.
 *
 * <p>Owned by the network agent thread (the transport's sends and polls, and membership's handshake, run
 * there); counters are readable by any thread.
 */
package org.divvy.security;
