package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Prometheus scraping (prometheus-operator objects). Note the asymmetry: when this whole section is omitted the
 * operator still creates the serving pods' PodMonitors, whereas {@code podMonitor: {}} turns them off, because
 * {@code enabled} then defaults to false.
 *
 * @param podMonitor The PodMonitors {@code <name>-decode} and (with prefill) {@code <name>-prefill}, which scrape
 *     vLLM and relabel {@code app.kubernetes.io/name} to {@code model_service}. When enabled explicitly and
 *     {@code inferencePool} is set, a ServiceMonitor for the endpoint picker's metrics port is created too,
 *     authenticating with the picker's service-account token.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MonitoringSpec(PodMonitorSpec podMonitor) {
}
