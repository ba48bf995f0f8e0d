package dev.modelplane.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void doublesFromTheFirstWaitUpToTheLongest() {
    Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    assertThat(IntStream.rangeClosed(1, 8).mapToObj(b::delay).map(Duration::toSeconds))
        .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
    assertThat(b.delay(0)).as("below 1 counts as the first retry").isEqualTo(Duration.ofSeconds(1));
    assertThat(b.delay(-5)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void largeRetryCountsNeitherOverflowNorLoopLong() {
    assertThat(new Backoff(Duration.ofMillis(10), Duration.ofMinutes(5)).delay(Integer.MAX_VALUE))
        .isEqualTo(Duration.ofMinutes(5));
    Duration longest = Duration.ofSeconds(Long.MAX_VALUE);
    assertThat(new Backoff(Duration.ofSeconds(3), longest).delay(Integer.MAX_VALUE)).isEqualTo(longest);
    assertThat(new Backoff(Duration.ZERO, Duration.ofSeconds(1)).delay(Integer.MAX_VALUE)).isZero();
  }

  @Test
  void keepsSubMillisecondWaitsAndTheExactLongest() {
    Backoff b = new Backoff(Duration.ofNanos(1500), Duration.ofNanos(5000));
    assertThat(IntStream.rangeClosed(1, 4).mapToObj(b::delay).map(Duration::toNanos))
        .containsExactly(1500L, 3000L, 5000L, 5000L);
    assertThat(new Backoff(Duration.ofSeconds(7), Duration.ofSeconds(7)).delay(3)).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aFirstWaitAboveTheLongestIsCut() {
    Backoff b = new Backoff(Duration.ofMinutes(10), Duration.ofMinutes(5));
    assertThat(b.delay(1)).isEqualTo(Duration.ofMinutes(5));
    assertThat(b.delay(4)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void refusesNegativeWaits() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(-1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("backoff waits must not be negative, got PT-1S and PT1S");
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
