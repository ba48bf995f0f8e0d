package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RescheduleTest {
  @Test
  void theShortestWaitWinsAndNoWaitMeansNoTimer() {
    assertThat(Reschedule.earliest(null, Duration.ofSeconds(60), Duration.ofSeconds(10), null))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(Reschedule.earliest(null, null)).isNull();
    assertThat(Reschedule.earliest()).isNull();
  }
}
