package dev.modelplane.router.gateway;

import static dev.modelplane.router.gateway.ExchangePhase.ABANDONED;
import static dev.modelplane.router.gateway.ExchangePhase.ACCEPTING;
import static dev.modelplane.router.gateway.ExchangePhase.CONNECTING;
import static dev.modelplane.router.gateway.ExchangePhase.DECIDING;
import static dev.modelplane.router.gateway.ExchangePhase.DONE;
import static dev.modelplane.router.gateway.ExchangePhase.PASSING_THROUGH;
import static dev.modelplane.router.gateway.ExchangePhase.READING;
import static dev.modelplane.router.gateway.ExchangePhase.RELAYING;
import static dev.modelplane.router.gateway.ExchangePhase.WAITING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The moves an exchange may make between its phases, and the ones it may not. */
class ExchangePhaseTest {
  private static EnumSet<ExchangePhase> successors(ExchangePhase from) {
    EnumSet<ExchangePhase> to = EnumSet.noneOf(ExchangePhase.class);
    for (ExchangePhase p : ExchangePhase.values()) {
      if (from.canBecome(p)) {
        to.add(p);
      }
    }
    return to;
  }

  @Test
  void aRequestGoesForwardFromAcceptingToDone() {
    List<ExchangePhase> path = List.of(ACCEPTING, READING, DECIDING, CONNECTING, WAITING, RELAYING, DONE);
    for (int i = 0; i + 1 < path.size(); i++) {
      assertThat(path.get(i).canBecome(path.get(i + 1))).as(path.get(i) + " -> " + path.get(i + 1)).isTrue();
    }
  }

  @Test
  void eachPhaseHasOnlyItsOwnSuccessors() {
    assertThat(successors(ACCEPTING)).containsExactlyInAnyOrder(READING, PASSING_THROUGH, DONE);
    assertThat(successors(READING)).containsExactlyInAnyOrder(DECIDING, DONE);
    assertThat(successors(DECIDING)).containsExactlyInAnyOrder(CONNECTING, ABANDONED, DONE);
    assertThat(successors(CONNECTING)).containsExactlyInAnyOrder(CONNECTING, WAITING, ABANDONED, DONE);
    assertThat(successors(WAITING)).containsExactlyInAnyOrder(CONNECTING, RELAYING, DONE);
    assertThat(successors(RELAYING)).containsExactly(DONE);
    assertThat(successors(PASSING_THROUGH)).containsExactly(DONE);
    assertThat(successors(ABANDONED)).containsExactly(DONE);
    assertThat(successors(DONE)).isEmpty();
  }

  @Test
  void nothingIsRetriedOnceTheClientHasResponseBytes() {
    assertThat(RELAYING.canBecome(CONNECTING)).isFalse();
    assertThat(RELAYING.canBecome(WAITING)).isFalse();
  }

  @Test
  void anAbandonedExchangeNeverForwardsAndADoneOneNeverMoves() {
    assertThat(successors(ABANDONED)).doesNotContain(CONNECTING, WAITING, RELAYING);
    for (ExchangePhase p : ExchangePhase.values()) {
      assertThat(DONE.canBecome(p)).as("DONE -> " + p).isFalse();
      assertThat(p.canBecome(ACCEPTING)).as(p + " -> ACCEPTING").isFalse();
    }
  }
}
