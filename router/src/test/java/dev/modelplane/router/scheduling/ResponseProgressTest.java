package dev.modelplane.router.scheduling;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseProgressTest {
  private static void feed(ResponseProgress p, String s, long now) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    p.onBody(b, 0, b.length, now);
  }

  @Test
  void countsEventsAcrossChunkBoundariesWithoutTheDoneMarker() {
    ResponseProgress p = new ResponseProgress();
    feed(p, "da", 10);
    feed(p, "ta: {\"x\":1}\n\nd", 20);
    feed(p, "ata: {\"x\":\"data\"}\n\ndata: [DO", 30);
    feed(p, "NE]\n\n", 40);
    assertThat(p.events()).isEqualTo(2);
    assertThat(p.firstByteNanos()).isEqualTo(10);
    assertThat(p.lastByteNanos()).isEqualTo(40);
  }

  @Test
  void aPlainBodyHasNoEventsAndNothingRelayedHasNoTimes() {
    ResponseProgress p = new ResponseProgress();
    assertThat(p.firstByteNanos()).isEqualTo(-1);
    feed(p, "", 5);
    assertThat(p.firstByteNanos()).isEqualTo(-1);
    feed(p, "{\"choices\":[{\"text\":\"dddata\"}]}", 7);
    assertThat(p.events()).isZero();
    assertThat(p.firstByteNanos()).isEqualTo(7);
  }

  @Test
  void outcomeCarriesTheTiming() {
    ResponseProgress p = new ResponseProgress();
    feed(p, "data: a\n\ndata: b\n\n", 3);
    ResponseOutcome o = ResponseOutcome.of(200, true, 18, p);
    assertThat(o).isEqualTo(new ResponseOutcome(200, true, 18, 3, 3, 2));
    assertThat(new ResponseOutcome(200, true, 1).firstByteNanos()).isEqualTo(-1);
  }
}
