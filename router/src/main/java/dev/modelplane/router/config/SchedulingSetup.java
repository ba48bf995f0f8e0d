package dev.modelplane.router.config;

import dev.modelplane.router.datalayer.MetricsExtractor;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.SaturationDetector;
import dev.modelplane.router.flowcontrol.UsageLimitPolicy;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.scheduling.LifecyclePlugins;
import dev.modelplane.router.scheduling.Scheduler;
import java.util.Map;

/**
 * Everything a loaded {@link EndpointPickerConfig} yields.
 *
 * @param config the config after defaults were applied (for printing)
 * @param plugins every plugin instance by name, in declaration order
 * @param scheduler the scheduler (profile handler and profiles)
 * @param lifecycle the plugins run before and after scheduling and on the response side
 * @param saturationDetector the detector used for admission and flow control
 * @param metricsExtractor engine mappings from {@code core-metrics-extractor}
 * @param flowControl queue configuration, or {@code null} when the {@code flowControl} feature gate is off
 * @param usageLimits the ceilings of flow control's priority bands
 * @param prefixProducer the approximate prefix producer, if any (its index is purged when endpoints leave)
 */
public record SchedulingSetup(EndpointPickerConfig config, Map<String, Plugin> plugins, Scheduler scheduler,
    LifecyclePlugins lifecycle, SaturationDetector saturationDetector, MetricsExtractor metricsExtractor,
    FlowControlConfig flowControl, UsageLimitPolicy usageLimits, ApproxPrefixCacheProducer prefixProducer) {
}
