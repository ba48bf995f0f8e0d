package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/**
 * How the serving pods are scraped.
 *
 * @param enabled Whether the PodMonitors (and the picker's ServiceMonitor) are created; false by default.
 * @param portName Named container port to scrape, {@code http} (vLLM's serving port) by default.
 * @param path HTTP path of the metrics, {@code /metrics} by default.
 * @param interval Time between scrapes as a Prometheus duration such as {@code 30s} (the default) or
 *     {@code 1m30s}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PodMonitorSpec(
    @Default("false") Boolean enabled,
    @Default("http") String portName,
    @Default("/metrics") String path,
    @Default("30s")
    @Pattern("^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$")
    String interval) {
}
