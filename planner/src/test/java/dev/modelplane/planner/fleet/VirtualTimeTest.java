package dev.modelplane.planner.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class VirtualTimeTest {
  @Test
  void tasksRunInTimeOrderThenByRankThenInOrderScheduled() {
    VirtualTime t = new VirtualTime();
    List<String> ran = new ArrayList<>();
    t.at(20, VirtualTime.SCRAPE, () -> ran.add("scrape@20"));
    t.at(20, VirtualTime.SERVER, () -> ran.add("server@20"));
    t.at(20, VirtualTime.ARRIVAL, () -> ran.add("arrival@20"));
    t.at(10, VirtualTime.SERVER, () -> ran.add("server@10 a"));
    t.at(10, VirtualTime.SERVER, () -> ran.add("server@10 b"));
    while (t.runNext()) {
      ran.add("now=" + t.now());
    }
    assertThat(ran).containsExactly("server@10 a", "now=10", "server@10 b", "now=10", "arrival@20", "now=20",
        "server@20", "now=20", "scrape@20", "now=20");
  }

  @Test
  void aTaskForThePastRunsNow() {
    VirtualTime t = new VirtualTime();
    t.at(50, VirtualTime.ROUTER, () -> t.at(10, VirtualTime.ROUTER, () -> { }));
    t.runNext();
    t.runNext();
    assertThat(t.now()).isEqualTo(50);
  }

  @Test
  void theExecutorRunsNowAndRepeatsUntilCancelled() {
    VirtualTime t = new VirtualTime();
    VirtualExecutor ex = new VirtualExecutor(t);
    List<Long> ticks = new ArrayList<>();
    ScheduledFuture<?>[] f = new ScheduledFuture<?>[1];
    f[0] = ex.scheduleAtFixedRate(() -> {
      ticks.add(t.now());
      if (ticks.size() == 4) {
        f[0].cancel(false);
      }
    }, 5, 2, TimeUnit.NANOSECONDS);
    t.at(4, VirtualTime.ARRIVAL, () -> ex.execute(() -> ticks.add(-t.now())));
    for (int i = 0; i < 20 && t.runNext(); i++) {
      // bounded
    }
    assertThat(ticks).containsExactly(-4L, 5L, 7L, 9L);
    assertThat(f[0].isCancelled()).isTrue();
  }
}
