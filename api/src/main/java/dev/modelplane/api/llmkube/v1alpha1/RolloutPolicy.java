package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/**
 * When a change of the pod template is rolled out. With {@code waitForIdle} the controller holds the Deployment update
 * back until every replica's model server is idle: llama.cpp is asked through its {@code /slots} endpoint, vLLM, TGI
 * and SGLang through their Prometheus gauges of running requests, and a {@code generic} server through an idle
 * endpoint named in an annotation. Runtimes without idle detection roll out at once.
 *
 * @param waitForIdle Defers pod-template updates until all replicas are idle or {@code idleTimeoutSeconds} has
 *     passed.
 * @param idleTimeoutSeconds Longest wait for idleness, in seconds, at least 0; 300 by default, and 0 also means 300.
 *     After it the rollout proceeds whatever the servers are doing.
 * @param force Rolls out at once, ignoring {@code waitForIdle}; for urgent changes or servers stuck in a busy state.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RolloutPolicy(
    Boolean waitForIdle,
    @Min(0) @Default("300") Integer idleTimeoutSeconds,
    Boolean force) {
}
