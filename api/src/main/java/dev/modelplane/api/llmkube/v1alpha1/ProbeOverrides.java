package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Probe;

/**
 * Probes that replace the ones the controller generates for the runtime (by default HTTP {@code /health}, or a TCP
 * check for runtimes without one). Each probe given replaces the generated one as a whole; an unset probe keeps the
 * default.
 *
 * @param startup Replaces the startup probe (by default up to about 30 minutes, to allow for large model loads).
 * @param liveness Replaces the liveness probe.
 * @param readiness Replaces the readiness probe.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeOverrides(Probe startup, Probe liveness, Probe readiness) {
}
