package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiskBudgetTest {
  private static final ModelRoots ROOTS = ModelRoots.parse(List.of("/raid/models=/host/raid"));
  private static final ModelRoots.Resolved TARGET = new ModelRoots.Resolved(Path.of("/raid/models/team/llama"),
      Path.of("/host/raid/team/llama"));
  private static final long GIB = 1024L * 1024 * 1024;

  /** Free space and used bytes by directory, as a node would have them. */
  private static DiskBudget.Space space(long free, Map<Path, Long> used) {
    return new DiskBudget.Space() {
      @Override
      public long usable(Path dir) {
        return free;
      }

      @Override
      public long used(Path dir) {
        return used.getOrDefault(dir, 0L);
      }
    };
  }

  @Test
  void aDownloadLargerThanTheFreeSpaceIsRefusedWithTheNumbers() {
    DiskBudget disk = new DiskBudget(ROOTS, 0, space(50 * GIB, Map.of(Path.of("/host/raid/team/llama"), 10 * GIB)));
    assertThat(disk.refusal(TARGET, 100 * GIB)).contains("the model needs 96636764160 bytes (90.0 GiB) more in "
        + "/raid/models/team/llama (107374182400 bytes (100.0 GiB) in all, 10737418240 bytes (10.0 GiB) already "
        + "there), but only 53687091200 bytes (50.0 GiB) are free on the node's file system");
    assertThat(disk.refusal(TARGET, 60 * GIB)).isEmpty();
  }

  @Test
  void aDownloadPastTheRootsBudgetIsRefusedWithTheNumbers() {
    DiskBudget disk = new DiskBudget(ROOTS, 500 * GIB, space(10_000 * GIB,
        Map.of(Path.of("/host/raid"), 480 * GIB)));
    assertThat(disk.refusal(TARGET, 30 * GIB)).contains("the model needs 32212254720 bytes (30.0 GiB) more in "
        + "/raid/models/team/llama (32212254720 bytes (30.0 GiB) in all, 0 bytes already there), but the disk budget "
        + "of /raid/models is 536870912000 bytes (500.0 GiB) and 515396075520 bytes (480.0 GiB) are used "
        + "(21474836480 bytes (20.0 GiB) left; agent flag --disk-budget)");
    assertThat(disk.refusal(TARGET, 20 * GIB)).isEmpty();
  }

  @Test
  void whatIsAlreadyThereCountsOnce() {
    DiskBudget disk = new DiskBudget(ROOTS, 100 * GIB, space(1 * GIB, Map.of(Path.of("/host/raid"), 90 * GIB,
        Path.of("/host/raid/team/llama"), 40 * GIB)));
    // A resumed download of 40 GiB of 41 needs 1 GiB: it fits the free space and the budget (90 + 1 <= 100).
    assertThat(disk.refusal(TARGET, 41 * GIB)).isEmpty();
  }
}
