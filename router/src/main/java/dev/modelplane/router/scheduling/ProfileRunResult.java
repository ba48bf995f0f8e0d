package dev.modelplane.router.scheduling;

import java.util.List;

/** The endpoints one profile picked, best first. */
public record ProfileRunResult(List<Candidate> targets) {
  public ProfileRunResult {
    targets = List.copyOf(targets);
  }
}
