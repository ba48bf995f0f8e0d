package dev.modelplane.router.session;

import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import java.util.List;

/**
 * {@code session-affinity-filter} (llm-d's name and parameters, see {@link SessionAffinity}): a hard pin. When the
 * session's endpoint is a candidate it is the only one kept; otherwise every candidate is, so the filter never leaves
 * a request without an endpoint.
 */
public final class SessionAffinityFilter extends SessionAffinityPlugin implements Filter {
  public static final String TYPE = "session-affinity-filter";

  SessionAffinityFilter(String name, SessionAffinity affinity) {
    super(TYPE, name, affinity);
  }

  /** Factory; parameters as {@link SessionAffinity#from}. */
  public static SessionAffinityFilter create(String name, PluginParameters p, PluginHandle handle) {
    return new SessionAffinityFilter(name,
        SessionAffinity.from(TYPE + "/" + name, p, handle.environment().nanoClock()));
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    Candidate pinned = affinity.choose(request, candidates);
    return pinned == null ? candidates : List.of(pinned);
  }
}
