package dev.modelplane.router.testing;

import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ResponseCompletePlugin;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A plugin at every lifecycle point that records what the director told it, in order. */
public final class RecordingPlugin extends NamedPlugin
    implements PrepareDataPlugin, PreRequestPlugin, ResponseReceivedPlugin, ResponseCompletePlugin {
  public static final String TYPE = "recording-plugin";

  /** A config with the default scorers plus this plugin. */
  public static final String CONFIG = """
      plugins:
      - type: queue-scorer
      - type: recording-plugin
      schedulingProfiles:
      - name: default
        plugins:
        - pluginRef: queue-scorer
      """;

  private final List<String> events = new CopyOnWriteArrayList<>();
  private volatile ResponseOutcome outcome;

  public RecordingPlugin(String name) {
    super(TYPE, name);
  }

  /** Loads {@link #CONFIG} with this type registered; the instance is {@code setup.plugins().get(TYPE)}. */
  public static SchedulingSetup load() {
    PluginRegistry registry = PluginRegistry.builtIn();
    registry.register(TYPE, (name, parameters, handle) -> new RecordingPlugin(name));
    return new ConfigLoader(registry, PluginEnvironment.direct(), null).load(CONFIG);
  }

  public List<String> events() {
    return events;
  }

  public ResponseOutcome outcome() {
    return outcome;
  }

  @Override
  public void prepareRequestData(InferenceRequest request, List<Candidate> candidates) {
    events.add("prepareData " + request.requestId());
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    events.add("preRequest " + result.primary().targets().get(0).endpoint().hostPort());
  }

  @Override
  public void responseReceived(InferenceRequest request, SchedulingResult result, int status,
      EndpointState servedBy) {
    events.add("responseReceived " + status + " " + (servedBy == null ? "-" : servedBy.endpoint().hostPort()));
  }

  @Override
  public void responseComplete(InferenceRequest request, EndpointState servedBy, ResponseOutcome outcome) {
    this.outcome = outcome;
    events.add("responseComplete " + (servedBy == null ? "-" : servedBy.endpoint().hostPort()));
  }
}
