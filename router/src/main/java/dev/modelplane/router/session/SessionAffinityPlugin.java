package dev.modelplane.router.session;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.SchedulingResult;

/**
 * What the session filter and scorer both do around scheduling: remember where the request went
 * ({@code session_id}) and tell the client ({@code encoded_endpoint_header}).
 */
abstract sealed class SessionAffinityPlugin extends NamedPlugin implements PreRequestPlugin, ResponseReceivedPlugin
    permits SessionAffinityFilter, SessionAffinityScorer {
  final SessionAffinity affinity;

  SessionAffinityPlugin(String type, String name, SessionAffinity affinity) {
    super(type, name);
    this.affinity = affinity;
  }

  @Override
  public final void preRequest(InferenceRequest request, SchedulingResult result) {
    affinity.preRequest(request, result);
  }

  @Override
  public final void responseReceived(InferenceRequest request, SchedulingResult result, int status,
      EndpointState servedBy) {
    affinity.responseReceived(request, result, servedBy);
  }
}
