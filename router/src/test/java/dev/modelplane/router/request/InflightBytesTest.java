package dev.modelplane.router.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The in-flight request bytes budget: reservations grow, refuse past the limit, and are given back exactly once. */
class InflightBytesTest {
  @Test
  void reservationsShareTheBudgetAndAreReleasedOnce() {
    AtomicInteger rejections = new AtomicInteger();
    InflightBytes budget = new InflightBytes(100, rejections::incrementAndGet);
    InflightBytes.Reservation a = budget.reserve();
    InflightBytes.Reservation b = budget.reserve();
    assertThat(a.ensure(40)).isTrue();
    assertThat(a.ensure(60)).isTrue(); // grows by 20
    assertThat(a.ensure(50)).isTrue(); // never shrinks
    assertThat(budget.used()).isEqualTo(60);
    assertThat(b.ensure(41)).isFalse();
    assertThat(rejections).hasValue(1);
    assertThat(b.held()).isZero();
    assertThat(b.ensure(40)).isTrue();
    assertThat(budget.used()).isEqualTo(100);
    a.release();
    a.release();
    assertThat(budget.used()).isEqualTo(40);
    assertThat(a.ensure(1000)).as("a released reservation takes nothing more").isTrue();
    assertThat(budget.used()).isEqualTo(40);
    b.release();
    assertThat(budget.used()).isZero();
  }

  @Test
  void hasRoomChecksWithoutReserving() {
    AtomicInteger rejections = new AtomicInteger();
    InflightBytes budget = new InflightBytes(100, rejections::incrementAndGet);
    budget.reserve().ensure(30);
    assertThat(budget.hasRoom(70)).isTrue();
    assertThat(budget.used()).as("nothing taken").isEqualTo(30);
    assertThat(budget.hasRoom(71)).isFalse();
    assertThat(rejections).hasValue(1);
  }

  @Test
  void refusalIsA429WithRetryAfter() {
    RouterException e = new InflightBytes(10, null).refusal();
    assertThat(e.code().httpStatus()).isEqualTo(429);
    assertThat(e.retryAfterSeconds()).isPositive();
    assertThat(OpenAiErrors.body(e.code(), e.getMessage())).contains("\"type\":\"rate_limit_exceeded\"");
  }

  @Test
  void limitsRefuseABudgetSmallerThanOneBody() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestLimits.defaults().withMaxInflightBytes(1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least the body limit");
  }
}
