package dev.modelplane.router.config;

import dev.modelplane.router.datalayer.CoreMetricsExtractor;
import dev.modelplane.router.flowcontrol.ConcurrencyDetector;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.UsageLimitPolicies;
import dev.modelplane.router.flowcontrol.UtilizationDetector;
import dev.modelplane.router.load.InFlightLoadProducer;
import dev.modelplane.router.load.PrefixCacheAffinityFilter;
import dev.modelplane.router.load.TokenLoadScorer;
import dev.modelplane.router.plugin.ConfigOnlyPlugin;
import dev.modelplane.router.plugin.PluginFactory;
import dev.modelplane.router.predict.PredictedLatencyScorer;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheProducer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheScorer;
import dev.modelplane.router.scheduling.plugins.AlwaysDisaggPdDecider;
import dev.modelplane.router.scheduling.plugins.DisaggProfileHandler;
import dev.modelplane.router.scheduling.plugins.KvCacheUtilizationScorer;
import dev.modelplane.router.scheduling.plugins.LabelFilter;
import dev.modelplane.router.scheduling.plugins.LoraAffinityScorer;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.PrefixBasedPdDecider;
import dev.modelplane.router.scheduling.plugins.QueueScorer;
import dev.modelplane.router.scheduling.plugins.RandomPicker;
import dev.modelplane.router.scheduling.plugins.SingleProfileHandler;
import dev.modelplane.router.scheduling.plugins.WeightedRandomPicker;
import dev.modelplane.router.session.SessionAffinityFilter;
import dev.modelplane.router.session.SessionAffinityScorer;
import dev.modelplane.router.session.SessionIdProducer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Plugin types the router knows, by GIE/llm-d type name. Each type's factory and parameters live with the plugin;
 * this class only lists them.
 */
public final class PluginRegistry {
  public static final String OPENAI_PARSER = "openai-parser";
  public static final String METRICS_DATA_SOURCE = "metrics-data-source";
  /**
   * llm-d's PreRequest plugins that wrote {@code x-prefiller-host-port} from the prefill profile's pick (the older
   * {@code prefill-header-handler} and its successor {@code disagg-headers-handler}); here the P/D profile handler
   * writes the header itself, as in current llm-d, so they are accepted and do nothing more.
   */
  public static final String PREFILL_HEADER_HANDLER = "prefill-header-handler";
  public static final String DISAGG_HEADERS_HANDLER = "disagg-headers-handler";

  private final Map<String, PluginFactory> factories = new LinkedHashMap<>();

  /** Every built-in type. */
  public static PluginRegistry builtIn() {
    PluginRegistry r = new PluginRegistry();
    r.register(QueueScorer.TYPE, QueueScorer::create);
    r.register(QueueScorer.RUNNING_REQUESTS_TYPE, QueueScorer::createRunning);
    r.register(KvCacheUtilizationScorer.TYPE, KvCacheUtilizationScorer::create);
    r.register(LoraAffinityScorer.TYPE, LoraAffinityScorer::create);
    r.register(PrefixCacheScorer.TYPE, PrefixCacheScorer::create);
    r.register(PrecisePrefixCacheScorer.TYPE, PrecisePrefixCacheScorer::create);
    r.register(PrecisePrefixCacheProducer.TYPE, PrecisePrefixCacheProducer::create);
    r.register(PredictedLatencyScorer.TYPE, PredictedLatencyScorer::create);
    r.register(MaxScorePicker.TYPE, MaxScorePicker::create);
    r.register(RandomPicker.TYPE, RandomPicker::create);
    r.register(WeightedRandomPicker.TYPE, WeightedRandomPicker::create);
    r.register(LabelFilter.DECODE_TYPE, LabelFilter::createDecode);
    r.register(LabelFilter.PREFILL_TYPE, LabelFilter::createPrefill);
    r.register(LabelFilter.ENCODE_TYPE, LabelFilter::createEncode);
    r.register(LabelFilter.BY_LABEL_TYPE, LabelFilter::byLabel);
    r.register(SingleProfileHandler.TYPE, SingleProfileHandler::create);
    r.register(DisaggProfileHandler.TYPE, DisaggProfileHandler::create);
    r.register(DisaggProfileHandler.PD_TYPE, DisaggProfileHandler::createPd);
    r.register(PrefixBasedPdDecider.TYPE, PrefixBasedPdDecider::create);
    r.register(AlwaysDisaggPdDecider.TYPE, AlwaysDisaggPdDecider::create);
    r.register(ApproxPrefixCacheProducer.TYPE, ApproxPrefixCacheProducer::create);
    r.register(UtilizationDetector.TYPE, UtilizationDetector::create);
    r.register(ConcurrencyDetector.TYPE, ConcurrencyDetector::create);
    r.register(UsageLimitPolicies.STATIC, UsageLimitPolicies.Static::create);
    r.register(UsageLimitPolicies.PRIORITY_HOLDBACK, UsageLimitPolicies.PriorityHoldback::create);
    r.register(UsageLimitPolicies.SOFT_REFLECTIVE, UsageLimitPolicies.SoftReflective::create);
    r.register(CoreMetricsExtractor.TYPE, CoreMetricsExtractor::create);
    r.register(InFlightLoadProducer.TYPE, InFlightLoadProducer::create);
    r.register(TokenLoadScorer.TYPE, TokenLoadScorer::create);
    r.register(PrefixCacheAffinityFilter.TYPE, PrefixCacheAffinityFilter::create);
    r.register(SessionAffinityFilter.TYPE, SessionAffinityFilter::create);
    r.register(SessionAffinityScorer.TYPE, SessionAffinityScorer::create);
    r.register(SessionIdProducer.TYPE, SessionIdProducer::create);
    for (String type : new String[] {OPENAI_PARSER, METRICS_DATA_SOURCE, FlowControlConfig.FCFS,
        FlowControlConfig.GLOBAL_STRICT, FlowControlConfig.ROUND_ROBIN, PREFILL_HEADER_HANDLER,
        DISAGG_HEADERS_HANDLER}) {
      r.register(type, ConfigOnlyPlugin.factory(type));
    }
    return r;
  }

  public void register(String type, PluginFactory factory) {
    factories.put(type, factory);
  }

  public PluginFactory factory(String type) {
    return factories.get(type);
  }

  public Set<String> types() {
    return factories.keySet();
  }
}
