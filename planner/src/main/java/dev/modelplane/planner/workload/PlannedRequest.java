package dev.modelplane.planner.workload;

/**
 * One request of a workload, as the fleet simulation replays it.
 *
 * @param id position in the workload, from 0
 * @param arrivalNanos when the client sends it, from the start of the run
 * @param promptTokens prompt length in tokens, the shared prefix included
 * @param outputTokens tokens to generate (the server is told to ignore end-of-sequence, so exactly these)
 * @param prefixGroup the shared-prefix group the prompt starts with, or -1 for none
 * @param prefixTokens tokens of the group's prefix at the start of the prompt (0 when none)
 * @param priority the request's priority (an InferenceObjective's; negative is sheddable)
 * @param adapter the LoRA adapter it asks for, or null for the base model
 * @param fairnessId the flow it belongs to for flow control's fairness
 */
public record PlannedRequest(long id, long arrivalNanos, int promptTokens, int outputTokens, int prefixGroup,
    int prefixTokens, int priority, String adapter, String fairnessId) {

  public PlannedRequest {
    if (promptTokens < 1 || outputTokens < 1) {
      throw new IllegalArgumentException("request " + id + ": prompt and output need at least one token");
    }
    if (prefixTokens < 0 || prefixTokens > promptTokens || prefixGroup < 0 && prefixTokens > 0) {
      throw new IllegalArgumentException("request " + id + ": prefix of " + prefixTokens + " tokens in a prompt of "
          + promptTokens);
    }
  }
}
