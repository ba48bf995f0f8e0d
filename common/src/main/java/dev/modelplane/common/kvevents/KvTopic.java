package dev.modelplane.common.kvevents;

import java.nio.ByteBuffer;

/**
 * The first two frames of a published message. vLLM leaves the topic to the operator; the convention llm-d set, and
 * this project follows, is {@code kv@<pod>@<model>}, where the pod is an address ({@code ip} or {@code ip:port}) a
 * router can match to an endpoint. The second frame is the batch's sequence number, eight bytes big-endian, counting
 * up by one per batch from the publisher's start; the replay socket ends its answer with {@link #END_OF_REPLAY}.
 *
 * @param pod the pod part, or the whole topic when it does not follow the convention
 * @param model the model part, or null
 */
public record KvTopic(String pod, String model) {
  /** The sequence number that marks the end of a replay. */
  public static final long END_OF_REPLAY = -1L;

  /** The conventional topic for a pod and model. */
  public static String of(String pod, String model) {
    return "kv@" + pod + "@" + model;
  }

  /** Splits a topic by the convention; anything else is taken whole as the pod. */
  public static KvTopic parse(String topic) {
    String[] parts = topic.split("@", -1);
    if (parts.length == 3 && !parts[1].isEmpty()) {
      return new KvTopic(parts[1], parts[2]);
    }
    return new KvTopic(topic, null);
  }

  /** The sequence frame for {@code seq}. */
  public static byte[] sequenceFrame(long seq) {
    return ByteBuffer.allocate(8).putLong(seq).array();
  }

  /** The sequence number in a frame, or throws when the frame is not eight bytes. */
  public static long sequence(byte[] frame) throws MalformedEventException {
    if (frame == null || frame.length != 8) {
      throw new MalformedEventException("a sequence frame has 8 bytes, not " + (frame == null ? 0 : frame.length));
    }
    return ByteBuffer.wrap(frame).getLong();
  }
}
