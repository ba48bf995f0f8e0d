package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * {@code queue-scorer}: min-max normalised waiting queue, {@code (maxQ − q)/(maxQ − minQ)}, all 1.0 when every
 * candidate has the same queue. Also serves as {@code running-requests-size-scorer} over running requests. Unlike
 * GIE, the queue (or running count) includes the requests this router chose the endpoint for since its last scrape
 * ({@link dev.modelplane.router.pool.EndpointState#unscrapedRequests()}), so decisions made between two scrapes do
 * not all go to the same endpoint.
 */
public final class QueueScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "queue-scorer";
  public static final String RUNNING_REQUESTS_TYPE = "running-requests-size-scorer";

  /** Factory for {@code queue-scorer} (no parameters). */
  public static QueueScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return waiting(name);
  }

  /** Factory for {@code running-requests-size-scorer} (no parameters). */
  public static QueueScorer createRunning(String name, PluginParameters parameters, PluginHandle handle) {
    return running(name);
  }

  private final ToIntFunction<Candidate> load;

  private QueueScorer(String type, String name, ToIntFunction<Candidate> load) {
    super(type, name);
    this.load = load;
  }

  /** Scores by waiting requests. */
  public static QueueScorer waiting(String name) {
    return new QueueScorer(TYPE, name, c -> c.metrics().waitingQueueSize() + c.state().unscrapedRequests());
  }

  /** Scores by running requests. */
  public static QueueScorer running(String name) {
    return new QueueScorer(RUNNING_REQUESTS_TYPE, name,
        c -> c.metrics().runningRequests() + c.state().unscrapedRequests());
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.DISTRIBUTION;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    int n = candidates.size();
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    int[] q = new int[n];
    for (int i = 0; i < n; i++) {
      q[i] = load.applyAsInt(candidates.get(i));
      min = Math.min(min, q[i]);
      max = Math.max(max, q[i]);
    }
    for (int i = 0; i < n; i++) {
      scores[i] = max == min ? 1.0 : (double) (max - q[i]) / (double) (max - min);
    }
  }
}
