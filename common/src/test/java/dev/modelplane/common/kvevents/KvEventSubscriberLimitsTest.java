package dev.modelplane.common.kvevents;

import static dev.modelplane.common.kvevents.KvEventStreamTest.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

/**
 * A source that misbehaves, played by raw ZeroMQ sockets: an oversized message, a stream full of holes whose replay
 * socket never answers, and a replay that answers under a foreign topic. None of them gets past the limits, and the
 * well-formed batches around them still arrive.
 */
class KvEventSubscriberLimitsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static byte[] batch(long hash) {
    return KvEventCodec.encode(new KvEventBatch(1.0, List.of(new BlockRemoved(new long[] {hash}, "GPU", 0)), null),
        EventLayout.ARRAY);
  }

  /** An XPUB socket: it hears the subscription, so the test sends only once the subscriber is connected. */
  private static ZMQ.Socket publisher(ZContext ctx, int port) {
    ZMQ.Socket pub = ctx.createSocket(SocketType.XPUB);
    pub.setLinger(0);
    pub.bind("tcp://127.0.0.1:" + port);
    return pub;
  }

  /** Waits for a subscribe message ({@code 1} then the topic), skipping unsubscribes ({@code 0}). */
  private static void awaitSubscription(ZMQ.Socket pub) {
    pub.setReceiveTimeOut((int) WAIT.toMillis());
    byte[] message;
    do {
      message = pub.recv();
      assertThat(message).as("the subscriber's subscription").isNotNull();
    } while (message.length == 0 || message[0] != 1);
  }

  private static void send(ZMQ.Socket pub, String topic, long seq, byte[] payload) {
    pub.sendMore(topic);
    pub.sendMore(KvTopic.sequenceFrame(seq));
    pub.send(payload);
  }

  @Test
  void aMessageOverTheSizeLimitIsNeverRead() throws Exception {
    int port = freePort();
    KvEventStreamTest.Heard heard = new KvEventStreamTest.Heard();
    KvEventSubscriber.Limits limits = new KvEventSubscriber.Limits(4096, 1000, 16, Duration.ofSeconds(10),
        Duration.ofSeconds(1));
    try (ZContext ctx = new ZContext(); ZMQ.Socket pub = publisher(ctx, port);
        KvEventSubscriber sub = new KvEventSubscriber("test", "kv@", heard, limits)) {
      sub.add(new KvEventSubscriber.Source("pod-a", "tcp://127.0.0.1:" + port, null));
      awaitSubscription(pub);
      send(pub, "kv@a@m", 1, batch(1));
      await().atMost(WAIT).until(() -> heard.log.contains("batch:1"));
      // Not a batch, and too large: read, it would be reported as malformed.
      send(pub, "kv@a@m", 2, new byte[64 * 1024]);
      // The connection it came on is closed; a new one is opened. Batches sent meanwhile are lost too.
      long[] seq = {2};
      await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
        seq[0]++;
        send(pub, "kv@a@m", seq[0], batch(seq[0]));
        return heard.log.size() > 1;
      });
      await().atMost(WAIT).until(() -> heard.log.stream().anyMatch(s -> s.startsWith("batch:") && !s.equals("batch:1")));
      assertThat(heard.log).as("the oversized message never reached the reader")
          .noneMatch(s -> s.startsWith("malformed"));
      // The new socket kept the numbering: what was lost (2 and whatever went out while reconnecting) is counted,
      // and the next batch is not taken for a restart.
      String next = heard.log.stream().filter(s -> s.startsWith("batch:") && !s.equals("batch:1")).findFirst()
          .orElseThrow();
      long first = Long.parseLong(next.substring("batch:".length()));
      assertThat(heard.log).startsWith("batch:1", "gap:" + (first - 2), next).doesNotContain("reset");
    }
  }

  @Test
  void aSourceWhoseReplayNeverAnswersCostsAtMostItsBudgetAndItsHolesCountAsGaps() throws Exception {
    int port = freePort();
    int replayPort = freePort();
    KvEventStreamTest.Heard heard = new KvEventStreamTest.Heard();
    KvEventSubscriber.Limits limits = new KvEventSubscriber.Limits(1 << 20, 1000, 16, Duration.ofSeconds(60),
        Duration.ofMillis(600));
    AtomicInteger asked = new AtomicInteger();
    try (ZContext ctx = new ZContext(); ZMQ.Socket pub = publisher(ctx, port);
        ZMQ.Socket silent = ctx.createSocket(SocketType.ROUTER)) {
      silent.setLinger(0);
      silent.setReceiveTimeOut(50);
      silent.bind("tcp://127.0.0.1:" + replayPort);
      try (KvEventSubscriber sub = new KvEventSubscriber("test", "kv@", heard, limits)) {
        sub.add(new KvEventSubscriber.Source("pod-a", "tcp://127.0.0.1:" + port, "tcp://127.0.0.1:" + replayPort));
        awaitSubscription(pub);
        // Every batch leaves a hole of nine.
        for (long seq = 10; seq <= 100; seq += 10) {
          send(pub, "kv@a@m", seq, batch(seq));
        }
        await().atMost(WAIT).until(() -> {
          countRequests(silent, asked);
          return heard.log.contains("batch:100");
        });
        countRequests(silent, asked);
      }
    }
    assertThat(heard.log.stream().filter(s -> s.startsWith("batch:")).toList()).hasSize(10);
    // The join replay and the replay before the first batch spend the 600 ms; the holes after that are not asked for.
    assertThat(asked.get()).as("replay requests").isBetween(1, 3);
    assertThat(heard.log.stream().filter(s -> s.startsWith("gap:")).mapToLong(s -> Long.parseLong(s.substring(4)))
        .sum()).as("batches missing for good").isEqualTo(81);
  }

  @Test
  void aCentralSocketForgetsTheTopicHeardLongestAgoBeyondItsCap() throws Exception {
    int port = freePort();
    KvEventStreamTest.Heard heard = new KvEventStreamTest.Heard();
    KvEventSubscriber.Limits limits = new KvEventSubscriber.Limits(1 << 20, 1000, 2, Duration.ofSeconds(10),
        Duration.ofSeconds(1));
    try (ZContext ctx = new ZContext();
        KvEventSubscriber sub = new KvEventSubscriber("central", "kv@", heard, limits)) {
      sub.add(new KvEventSubscriber.Source("central", "tcp://*:" + port, null));
      ZMQ.Socket pub = ctx.createSocket(SocketType.PUB);
      pub.setLinger(0);
      pub.connect("tcp://127.0.0.1:" + port);
      long[] seq = {4};
      await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
        seq[0]++;
        send(pub, "kv@a@m", seq[0], batch(100 + seq[0]));
        return !heard.log.isEmpty();
      });
      send(pub, "kv@b@m", 1, batch(21));
      send(pub, "kv@c@m", 1, batch(31));
      await().atMost(WAIT).until(() -> heard.log.contains("batch:31"));
      // Topic a, heard longest ago, was forgotten: its lower number is a first batch, not a restart.
      send(pub, "kv@a@m", 1, batch(41));
      await().atMost(WAIT).until(() -> heard.log.contains("batch:41"));
      assertThat(heard.log).doesNotContain("reset");
    }
  }

  private static void countRequests(ZMQ.Socket router, AtomicInteger asked) {
    for (ZMsg m; (m = ZMsg.recvMsg(router)) != null; ) {
      asked.incrementAndGet();
      m.destroy();
    }
  }

  @Test
  void aReplayAnswerUnderATopicTheFilterRefusesIsIgnored() throws Exception {
    int port = freePort();
    int replayPort = freePort();
    KvEventStreamTest.Heard heard = new KvEventStreamTest.Heard();
    try (ZContext ctx = new ZContext(); ZMQ.Socket pub = publisher(ctx, port);
        ZMQ.Socket replay = ctx.createSocket(SocketType.ROUTER)) {
      replay.setLinger(0);
      replay.setReceiveTimeOut(100);
      replay.bind("tcp://127.0.0.1:" + replayPort);
      Thread answering = Thread.ofVirtual().start(() -> {
        // llm-d-inference-sim's answer shape, [topic, seq, batch], for every request: one foreign, one ours.
        while (!Thread.currentThread().isInterrupted()) {
          ZMsg request = ZMsg.recvMsg(replay);
          if (request == null) {
            continue;
          }
          byte[] client = request.pop().getData();
          for (Object[] answer : new Object[][] {{"other@a@m", 1L, batch(1)}, {"kv@a@m", 2L, batch(2)},
              {"", KvTopic.END_OF_REPLAY, new byte[0]}}) {
            replay.sendMore(client);
            replay.sendMore(new byte[0]);
            replay.sendMore((String) answer[0]);
            replay.sendMore(KvTopic.sequenceFrame((Long) answer[1]));
            replay.send((byte[]) answer[2]);
          }
        }
      });
      try (KvEventSubscriber sub = new KvEventSubscriber("test", "kv@", heard)) {
        sub.add(new KvEventSubscriber.Source("pod-a", "tcp://127.0.0.1:" + port, "tcp://127.0.0.1:" + replayPort));
        await().atMost(WAIT).until(() -> heard.log.contains("batch:2"));
        awaitSubscription(pub);
        send(pub, "kv@a@m", 3, batch(3));
        await().atMost(WAIT).until(() -> heard.log.contains("batch:3"));
      } finally {
        answering.interrupt();
        answering.join();
      }
    }
    assertThat(heard.log).doesNotContain("batch:1").containsSubsequence("batch:2", "batch:3");
  }
}
