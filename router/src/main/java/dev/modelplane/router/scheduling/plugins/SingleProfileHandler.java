package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.ProfileHandler;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.SchedulingException;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.Map;

/** {@code single-profile-handler}: runs the one profile once; it is primary. */
public final class SingleProfileHandler extends NamedPlugin implements ProfileHandler {
  public static final String TYPE = "single-profile-handler";

  /** Factory (no parameters). */
  public static SingleProfileHandler create(String name, PluginParameters parameters, PluginHandle handle) {
    return new SingleProfileHandler(name);
  }

  public SingleProfileHandler(String name) {
    super(TYPE, name);
  }

  @Override
  public Map<String, SchedulerProfile> pick(CycleState state, InferenceRequest request,
      Map<String, SchedulerProfile> profiles, Map<String, ProfileRunResult> results) {
    return profiles.size() == results.size() ? Map.of() : profiles;
  }

  @Override
  public SchedulingResult processResults(CycleState state, InferenceRequest request,
      Map<String, ProfileRunResult> results) throws SchedulingException {
    if (results.size() != 1) {
      throw new SchedulingException(
          "single profile handler is intended to be used with a single profile, failed to process multiple profiles");
    }
    Map.Entry<String, ProfileRunResult> only = results.entrySet().iterator().next();
    if (only.getValue() == null) {
      throw new SchedulingException("failed to run scheduler profile '" + only.getKey() + "'");
    }
    return new SchedulingResult(only.getKey(), Map.of(only.getKey(), only.getValue()));
  }
}
