package dev.modelplane.router.e2e;

import static dev.modelplane.router.e2e.EventedSimulators.base;
import static dev.modelplane.router.e2e.EventedSimulators.prompt;
import static dev.modelplane.router.e2e.EventedSimulators.reusable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The precise index follows evictions the router did not cause. Two real simulators with twelve-block KV caches
 * publish their KV-cache events; in front of them a router scoring with {@code precise-prefix-cache-scorer} alone
 * (word tokenizer, as the simulators tokenize) and one with the default configuration, whose
 * {@code prefix-cache-scorer} only remembers where it sent prompts.
 *
 * <p>Both routers send prompt P to the same server B (the default one by its own choice, the precise one because B's
 * events say it holds P). Then, bypassing the routers, P is sent to the other server A, and B's cache is filled with
 * other prompts until it has evicted every block of P. Sent again, P goes to A through the precise router every time,
 * and A's own prefix-cache counters show every full block served from its cache; the default router, still believing
 * B holds P, sends it to B, which has to compute it all again.
 */
class PreciseEvictionE2ETest {
  static final String PRECISE_ONLY = """
      plugins:
      - type: precise-prefix-cache-scorer
        parameters:
          tokenProcessorConfig: {blockSize: 16, hashSeed: "42"}
          kvEventsConfig: {podDiscoveryConfig: {socketPort: %1$d, replayPort: %2$d}}
      - type: max-score-picker
      schedulingProfiles:
      - name: default
        plugins: [{pluginRef: precise-prefix-cache-scorer}, {pluginRef: max-score-picker}]
      """;
  private EventedSimulators sims;

  @AfterEach
  void tearDown() {
    if (sims != null) {
      sims.close();
    }
  }

  @Test
  void preciseRouterFollowsTheEvictionTheApproximateOneMisses() throws Exception {
    sims = new EventedSimulators(2, 12);
    Router precise = sims.router(PRECISE_ONLY);
    Router approximate = sims.router(null);
    sims.warmUp();
    String p = prompt("the shared document", 65); // four full blocks and one token: five blocks of twelve

    String b = sims.complete(base(approximate), p);
    sims.settle(b, p);
    assertThat(sims.complete(base(precise), p)).as("the precise router follows B's events").isEqualTo(b);
    String a = sims.endpoints().stream().filter(e -> !e.equals(b)).findFirst().orElseThrow();

    sims.complete("http://" + a, p);
    sims.settle(a, p);
    for (int i = 0; i < 10 && sims.holdsAny(b, p); i++) {
      sims.complete("http://" + b, prompt("filler " + i, 65));
      sims.settle();
    }
    sims.settle();
    assertThat(sims.holdsAny(b, p)).as("B evicted every block of P").isFalse();
    assertThat(sims.holdsAll(a, p)).as("A still holds P").isTrue();

    int repeats = 20;
    long hitsBefore = sims.hits(a);
    long queriesBefore = sims.queries(a);
    long bHitsBefore = sims.hits(b);
    for (int i = 0; i < repeats; i++) {
      assertThat(sims.complete(base(precise), p)).as("request %d through the precise router", i).isEqualTo(a);
    }
    long hits = sims.hits(a) - hitsBefore;
    long queries = sims.queries(a) - queriesBefore;
    assertThat(hits).as("A's prefix-cache hits: every full block of every request").isEqualTo((long) repeats
        * reusable(p));
    assertThat(queries).isEqualTo(repeats * 65L);
    assertThat(sims.hits(b)).as("B served none of them").isEqualTo(bHitsBefore);
    System.out.printf("precise after eviction: %d/%d requests on the holder, prefix-cache hits %d of %d full-block "
        + "tokens (100 %%), %d of %d prompt tokens%n", repeats, repeats, hits, (long) repeats * reusable(p), hits,
        queries);

    long bHits = sims.hits(b);
    long bQueries = sims.queries(b);
    assertThat(sims.complete(base(approximate), p)).as("the default router still believes B holds P").isEqualTo(b);
    assertThat(sims.queries(b) - bQueries).isEqualTo(65);
    assertThat(sims.hits(b) - bHits).as("B had evicted P: no token of it was cached").isZero();
  }
}
