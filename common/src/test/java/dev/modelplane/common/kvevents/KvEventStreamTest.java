package dev.modelplane.common.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

/** A publisher and a subscriber over loopback TCP: replay on join, restarts, removal, central mode, vLLM's REQ. */
class KvEventStreamTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** What a listener heard, as short strings: {@code batch:<first removed hash>}, {@code reset}, {@code gap:n}. */
  static final class Heard implements KvEventSubscriber.Listener {
    final List<String> log = new CopyOnWriteArrayList<>();
    final List<KvTopic> topics = new CopyOnWriteArrayList<>();

    @Override
    public void onBatch(KvEventSubscriber.Source source, KvTopic topic, KvEventBatch batch) {
      topics.add(topic);
      log.add("batch:" + ((BlockRemoved) batch.events().getFirst()).blockHashes()[0]);
    }

    @Override
    public void onReset(KvEventSubscriber.Source source, String reason) {
      log.add("reset");
    }

    @Override
    public void onGap(KvEventSubscriber.Source source, long missing) {
      log.add("gap:" + missing);
    }

    @Override
    public void onMalformed(KvEventSubscriber.Source source, String reason) {
      log.add("malformed:" + reason);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static KvEventsConfig config(int port, Integer replayPort, String topic) {
    return new KvEventsConfig(true, "zmq", "tcp://*:" + port, replayPort == null ? null : "tcp://*:" + replayPort,
        100, 1000, 1000, topic);
  }

  private static List<KvEvent> removed(long hash) {
    return List.of(new BlockRemoved(new long[] {hash}, "GPU", 0));
  }

  @Test
  void aLateSubscriberGetsWhatTheServerKeptThenLiveBatchesInOrder() throws Exception {
    int port = freePort();
    int replayPort = freePort();
    Heard heard = new Heard();
    try (KvEventPublisher pub = new KvEventPublisher(config(port, replayPort, "kv@127.0.0.1:8000@m"),
        EventLayout.ARRAY, 0, () -> 1.0)) {
      for (long h = 1; h <= 5; h++) {
        pub.publish(removed(h));
      }
      await().atMost(WAIT).until(() -> pub.published() == 5);
      try (KvEventSubscriber sub = new KvEventSubscriber("test", "kv@", heard)) {
        sub.add(new KvEventSubscriber.Source("pod-a", "tcp://127.0.0.1:" + port, "tcp://127.0.0.1:" + replayPort));
        await().atMost(WAIT).until(() -> heard.log.size() >= 5);
        // Live batches: those sent before the subscription was up come back through a gap replay.
        long h = 5;
        do {
          pub.publish(removed(++h));
          Thread.sleep(50);
        } while (!heard.log.contains("batch:" + h) && h < 200);
        long last = h;
        await().atMost(WAIT).until(() -> heard.log.contains("batch:" + last));
        assertThat(heard.log).as("every batch once, in order").containsExactlyElementsOf(
            java.util.stream.LongStream.rangeClosed(1, last).mapToObj(i -> "batch:" + i).toList());
        assertThat(heard.topics.getLast()).isEqualTo(new KvTopic("127.0.0.1:8000", "m"));

        sub.remove("pod-a");
        await().atMost(WAIT).until(() -> heard.log.getLast().equals("reset"));
        assertThat(sub.sources()).isEmpty();
      }
    }
  }

  @Test
  void aServerThatRestartsIsForgottenBeforeItsNewBatches() throws Exception {
    int port = freePort();
    Heard heard = new Heard();
    try (KvEventSubscriber sub = new KvEventSubscriber("test", "", heard)) {
      sub.add(new KvEventSubscriber.Source("pod-a", "tcp://127.0.0.1:" + port, null));
      try (KvEventPublisher pub = new KvEventPublisher(config(port, null, ""), EventLayout.MAP, 0, () -> 1.0)) {
        publishUntilHeard(pub, heard, 10);
        pub.publish(removed(11));
        pub.publish(removed(12));
        await().atMost(WAIT).until(() -> heard.log.contains("batch:12"));
      }
      try (KvEventPublisher pub = new KvEventPublisher(config(port, null, ""), EventLayout.MAP, 0, () -> 1.0)) {
        publishUntilHeard(pub, heard, 20);
      }
      // A copy: the subscriber's thread may still be adding to the log (the last batch's repeats).
      List<String> log = List.copyOf(heard.log);
      int reset = log.indexOf("reset");
      assertThat(reset).as("a reset after the first server's batches: " + log)
          .isGreaterThan(log.indexOf("batch:12"));
      assertThat(log.subList(reset + 1, log.size())).allMatch(s -> s.equals("batch:20"));
    }
  }

  @Test
  void inCentralModeTheSubscriberBindsAndServersConnect() throws Exception {
    int port = freePort();
    Heard heard = new Heard();
    try (KvEventSubscriber sub = new KvEventSubscriber("central", "kv@", heard)) {
      sub.add(new KvEventSubscriber.Source("central", "tcp://*:" + port, null));
      KvEventsConfig connecting = new KvEventsConfig(true, "zmq", "tcp://127.0.0.1:" + port, null, 10, 10, 10,
          "kv@10.0.0.7@m");
      try (KvEventPublisher a = new KvEventPublisher(connecting, EventLayout.ARRAY, 0, () -> 1.0);
          KvEventPublisher ignored = new KvEventPublisher(new KvEventsConfig(true, "zmq", "tcp://127.0.0.1:" + port,
              null, 10, 10, 10, "other-topic"), EventLayout.ARRAY, 0, () -> 1.0)) {
        ignored.publish(removed(99));
        publishUntilHeard(a, heard, 7);
      }
      assertThat(heard.topics).contains(new KvTopic("10.0.0.7", "m"));
      assertThat(heard.log).doesNotContain("batch:99");
    }
  }

  @Test
  void aWildcardNarrowedToOneAddressLetsServersOnOtherAddressesShareThePort() throws Exception {
    int port = freePort();
    Heard heard = new Heard();
    try (KvEventPublisher first = new KvEventPublisher(config(port, null, ""), EventLayout.ARRAY, 0, () -> 1.0,
        "127.0.0.1");
        KvEventPublisher second = new KvEventPublisher(config(port, null, ""), EventLayout.ARRAY, 0, () -> 1.0,
            "127.0.0.2");
        KvEventSubscriber sub = new KvEventSubscriber("test", "", heard)) {
      sub.add(new KvEventSubscriber.Source("second", "tcp://127.0.0.2:" + port, null));
      first.publish(removed(1));
      publishUntilHeard(second, heard, 2);
      assertThat(heard.log).doesNotContain("batch:1");
    }
    assertThat(ZmqEndpoint.onHost("tcp://*:5557", "::1")).isEqualTo("tcp://[::1]:5557");
    assertThat(ZmqEndpoint.onHost("tcp://*:5557", "0.0.0.0")).isEqualTo("tcp://*:5557");
    assertThat(ZmqEndpoint.onHost("tcp://10.1.2.3:5557", "127.0.0.1")).isEqualTo("tcp://10.1.2.3:5557");
  }

  @Test
  void theReplaySocketAnswersAReqClientAsVllmsDoes() throws Exception {
    int port = freePort();
    int replayPort = freePort();
    try (KvEventPublisher pub = new KvEventPublisher(config(port, replayPort, "t"), EventLayout.ARRAY, 0, () -> 1.0);
        ZContext ctx = new ZContext()) {
      for (long h = 1; h <= 3; h++) {
        pub.publish(removed(h));
      }
      await().atMost(WAIT).until(() -> pub.published() == 3);
      // A REQ socket takes one reply per request; what matters is the first one's framing: [seq, batch]. A fresh
      // connection's handshake now and then stalls (see KvEventSubscriber.HANDSHAKE_MILLIS): a new socket asks again.
      ZMsg first = null;
      for (int attempt = 0; attempt < 5 && first == null; attempt++) {
        ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
        req.setLinger(0);
        req.setReceiveTimeOut(2_000);
        req.connect("tcp://127.0.0.1:" + replayPort);
        req.send(KvTopic.sequenceFrame(1));
        first = ZMsg.recvMsg(req);
        req.close();
      }
      assertThat(first).as("a replay answer").isNotNull();
      assertThat(first.size()).isEqualTo(2);
      assertThat(ByteBuffer.wrap(first.pop().getData()).getLong()).isEqualTo(1);
      assertThat(((BlockRemoved) KvEventCodec.decode(first.pop().getData()).events().getFirst()).blockHashes())
          .containsExactly(2L);
    }
  }

  @Test
  void anAllBlocksClearedBatchIsDelivered() throws Exception {
    int port = freePort();
    List<KvEventBatch> batches = new CopyOnWriteArrayList<>();
    KvEventSubscriber.Listener listener = new KvEventSubscriber.Listener() {
      @Override
      public void onBatch(KvEventSubscriber.Source source, KvTopic topic, KvEventBatch batch) {
        batches.add(batch);
      }

      @Override
      public void onReset(KvEventSubscriber.Source source, String reason) {
      }
    };
    try (KvEventSubscriber sub = new KvEventSubscriber("test", "", listener);
        KvEventPublisher pub = new KvEventPublisher(config(port, null, ""), EventLayout.MAP, 3, () -> 9.5)) {
      sub.add(new KvEventSubscriber.Source("pod", "tcp://127.0.0.1:" + port, null));
      await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
        pub.publish(List.of(new AllBlocksCleared()));
        return !batches.isEmpty();
      });
      assertThat(batches.getFirst()).isEqualTo(new KvEventBatch(9.5, List.of(new AllBlocksCleared()), 3));
    }
  }

  /** PUB/SUB drops what is sent before the subscription is up: publish until one arrives. */
  private static void publishUntilHeard(KvEventPublisher pub, Heard heard, long hash) {
    await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
      pub.publish(removed(hash));
      return heard.log.contains("batch:" + hash);
    });
  }
}
