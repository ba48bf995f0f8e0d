package dev.modelplane.router.e2e;

import static dev.modelplane.router.e2e.EventedSimulators.base;
import static dev.modelplane.router.e2e.EventedSimulators.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two router replicas reading the same servers' KV-cache events pick the same endpoints. Three real simulators with
 * sixteen-block KV caches (so blocks are evicted all the time) publish their events; two routers score with
 * {@code precise-prefix-cache-scorer} alone, each subscribed to every simulator on its own: one in this JVM, the
 * other a separate process started with the router command's flags ({@code --tokenizer word --config-text …}), so
 * they share nothing but the servers.
 *
 * <p>Every request of a stream of 240 (24 prompt families sharing a two-block prefix, four suffixes each, in a
 * seeded order) goes to the first replica, then the same to the second; before each, the test waits until both have
 * read every event the simulators published (checked against a mirror of the simulators' caches built from the same
 * events). Both then decide on the same cache state, and the second replica, seeing where the first one's request
 * was cached, must pick the same endpoint.
 *
 * <p>What else could make replicas differ is left out on purpose, so the test measures the index: no load scorer
 * (each replica scrapes the servers' metrics at its own moments, and sequential requests leave no load to see
 * anyway), and ties — which {@code max-score-picker} breaks at random — only arise between endpoints that hold the
 * prompt equally, which the index alone decides.
 */
class PreciseReplicasAgreeE2ETest {
  private static final int FAMILIES = 24;
  private static final int SUFFIXES = 4;
  private static final int REQUESTS = 240;
  private EventedSimulators sims;
  @TempDir
  Path tmp;

  @AfterEach
  void tearDown() {
    if (sims != null) {
      sims.close();
    }
  }

  @Test
  void twoReplicasOnTheSameEventsPickTheSameEndpoints() throws Exception {
    sims = new EventedSimulators(3, 16);
    String first = base(sims.router(PreciseEvictionE2ETest.PRECISE_ONLY));
    String second = sims.routerProcess(PreciseEvictionE2ETest.PRECISE_ONLY, tmp.resolve("router.log"));
    sims.warmUp();
    long evictionsBefore = sims.evictions();
    long hitsBefore = hits();
    long queriesBefore = queries();
    Random order = new Random(7);
    int agreed = 0;
    Map<String, Integer> served = new HashMap<>();
    for (int i = 0; i < REQUESTS; i++) {
      int family = order.nextInt(FAMILIES);
      // 32 shared tokens (two blocks), then 17 of the suffix: three full blocks and one token.
      String p = prompt("family " + family, 32) + " " + prompt("suffix " + order.nextInt(SUFFIXES), 17);
      String one = sims.complete(first, p);
      sims.settle(one, p);
      String two = sims.complete(second, p);
      sims.settle(two, p);
      agreed += one.equals(two) ? 1 : 0;
      served.merge(one, 1, Integer::sum);
    }
    double agreement = 100.0 * agreed / REQUESTS;
    System.out.printf("replicas agree on %d of %d requests (%.1f %%); first replica's picks %s; %d blocks evicted; "
        + "prefix-cache hits %d of %d prompt tokens%n", agreed, REQUESTS, agreement, served,
        sims.evictions() - evictionsBefore, hits() - hitsBefore, queries() - queriesBefore);
    assertThat(sims.evictions() - evictionsBefore).as("blocks the simulators evicted during the stream")
        .isGreaterThan(100);
    assertThat(served).as("every simulator took part").hasSize(3);
    assertThat(agreement).as("agreement in percent").isGreaterThanOrEqualTo(99.0);
  }

  private long hits() throws Exception {
    long sum = 0;
    for (String e : sims.endpoints()) {
      sum += sims.hits(e);
    }
    return sum;
  }

  private long queries() throws Exception {
    long sum = 0;
    for (String e : sims.endpoints()) {
      sum += sims.queries(e);
    }
    return sum;
  }
}
