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
  void onlyAnthropicsContentDeltasCarryTokens() {
    ResponseProgress p = new ResponseProgress();
    feed(p, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n", 10);
    feed(p, "event: content_block_start\ndata: {\"type\":\"content_block_start\"}\n\nevent: ping\n"
        + "data: {\"type\": \"ping\"}\n\n", 11);
    feed(p, "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"a\"}}\r\n\r\n",
        20);
    feed(p, "event: content_block_del", 30);
    feed(p, "ta\ndata: {\"type\":\"content_block_delta\"}\n\n", 31);
    feed(p, "event: content_block_stop\ndata: {}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\"}\n\n"
        + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", 40);
    assertThat(p.events()).isEqualTo(2);
    assertThat(p.firstEventNanos()).isEqualTo(20);
    assertThat(p.lastEventNanos()).isEqualTo(31);
    assertThat(p.firstByteNanos()).isEqualTo(10);
    ResponseOutcome o = ResponseOutcome.of(200, true, 1, p);
    assertThat(o.firstByteNanos()).as("time to the first token, not the opening event").isEqualTo(20);
    assertThat(o.lastByteNanos()).isEqualTo(31);
  }

  @Test
  void onlyTheResponsesApisDeltasCarryTokensWithOrWithoutEventLines() {
    ResponseProgress p = new ResponseProgress();
    feed(p, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{}}\n\n"
        + "data: {\"type\":\"response.in_progress\"}\n\n", 1);
    feed(p, "event: response.output_text.delta\ndata: {\"delta\":\"a\",\"type\":\"response.output_text.delta\"}\n\n",
        2);
    feed(p, "data: {\"type\":\"response.reasoning_text.delta\",\"delta\":\"b\"}\n\n", 3);
    feed(p, "data: {\"type\":\"response.output_text.done\"}\n\nevent: response.completed\ndata: {}\n\n", 4);
    assertThat(p.events()).isEqualTo(2);
    assertThat(p.firstEventNanos()).isEqualTo(2);
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
