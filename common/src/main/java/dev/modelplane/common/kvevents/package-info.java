/**
 * The KV-cache events a vLLM-compatible model server publishes, as data and on the wire: the event records, their
 * MessagePack encoding in both of vLLM's layouts, the ZeroMQ frames and topic, the {@code --kv-events-config}
 * settings, and vLLM's {@code sha256_cbor} block-hash chain. The simulator publishes with these classes and the
 * router reads with them, so both sides of a test agree by construction; golden bytes produced by independent
 * encoders keep them honest (see the tests).
 */
package dev.modelplane.common.kvevents;
