package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.ProfileHandler;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.SchedulingException;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * llm-d's {@code disagg-profile-handler}: runs the decode profile first (it is primary); then, for the encode and
 * prefill stages whose profiles exist and whose decider approves, runs those profiles. As a PreRequest plugin it sets
 * {@code x-prefiller-host-port} and {@code x-encoder-hosts-ports}, replacing whatever the client sent.
 */
public final class DisaggProfileHandler extends NamedPlugin implements ProfileHandler, PreRequestPlugin {
  public static final String TYPE = "disagg-profile-handler";
  /** The deprecated predecessor, accepted with its flat parameters. */
  public static final String PD_TYPE = "pd-profile-handler";
  public static final String PREFILL_HEADER = "x-prefiller-host-port";
  public static final String ENCODER_HEADER = "x-encoder-hosts-ports";

  /** Factory for {@code disagg-profile-handler}. */
  public static DisaggProfileHandler create(String name, PluginParameters parameters, PluginHandle handle) {
    return create(TYPE, name, parameters, handle);
  }

  /** Factory for the deprecated {@code pd-profile-handler}, whose decider defaults to the prefix-based one. */
  public static DisaggProfileHandler createPd(String name, PluginParameters parameters, PluginHandle handle) {
    return create(PD_TYPE, name, parameters, handle);
  }

  /**
   * Reads {@code profiles.{decode,prefill,encode}} and {@code deciders.{prefill,encode}}, falling back to the flat
   * parameters of {@code pd-profile-handler} and early {@code disagg-profile-handler} versions.
   */
  private static DisaggProfileHandler create(String type, String name, PluginParameters p, PluginHandle handle) {
    PluginParameters profiles = p.object("profiles");
    PluginParameters deciders = p.object("deciders");
    String decode = profiles.text("decode", p.text("decodeProfile", "decode"));
    String prefill = profiles.text("prefill", p.text("prefillProfile", "prefill"));
    String encode = profiles.text("encode", p.text("encodeProfile", "encode"));
    String legacyDecider = p.text("prefillDeciderPluginName", p.text("deciderPluginName",
        type.equals(PD_TYPE) ? PrefixBasedPdDecider.TYPE : ""));
    String prefillDecider = deciders.text("prefill", legacyDecider);
    String encodeDecider = deciders.text("encode", p.text("encodeDeciderPluginName", ""));
    return new DisaggProfileHandler(type, name, decode, prefill, encode, decider(handle, prefillDecider, "prefill"),
        decider(handle, encodeDecider, "encode"), handle.environment().observer()::disaggDecision);
  }

  private static PdDecider decider(PluginHandle handle, String name, String stage) {
    if (name.isEmpty()) {
      return null;
    }
    Plugin plugin = handle.plugin(name);
    if (plugin == null) {
      throw new IllegalArgumentException("deciders." + stage + " plugin not found: " + name);
    }
    if (!(plugin instanceof PdDecider decider)) {
      throw new IllegalArgumentException("plugin " + name + " does not implement a " + stage + " decider");
    }
    return decider;
  }

  private final String decodeProfile;
  private final String prefillProfile;
  private final String encodeProfile;
  private final PdDecider prefillDecider;
  private final PdDecider encodeDecider;
  private final BiConsumer<String, String> decisionListener;

  public DisaggProfileHandler(String type, String name, String decodeProfile, String prefillProfile,
      String encodeProfile, PdDecider prefillDecider, PdDecider encodeDecider,
      BiConsumer<String, String> decisionListener) {
    super(type, name);
    this.decodeProfile = decodeProfile;
    this.prefillProfile = prefillProfile;
    this.encodeProfile = encodeProfile;
    this.prefillDecider = prefillDecider;
    this.encodeDecider = encodeDecider;
    this.decisionListener = decisionListener == null ? (m, d) -> { } : decisionListener;
  }

  @Override
  public Map<String, SchedulerProfile> pick(CycleState state, InferenceRequest request,
      Map<String, SchedulerProfile> profiles, Map<String, ProfileRunResult> results) {
    if (!results.containsKey(decodeProfile)) {
      SchedulerProfile decode = profiles.get(decodeProfile);
      return decode == null ? Map.of() : Map.of(decodeProfile, decode);
    }
    ProfileRunResult decode = results.get(decodeProfile);
    if (decode == null || decode.targets().isEmpty()) {
      return Map.of();
    }
    Candidate decodeTarget = decode.targets().get(0);
    if (profiles.containsKey(encodeProfile) && !results.containsKey(encodeProfile)) {
      if (encodeDecider != null && encodeDecider.disaggregate(request, decodeTarget)) {
        return Map.of(encodeProfile, profiles.get(encodeProfile));
      }
      results.put(encodeProfile, null);
    }
    if (profiles.containsKey(prefillProfile) && !results.containsKey(prefillProfile)) {
      if (prefillDecider != null && prefillDecider.disaggregate(request, decodeTarget)) {
        return Map.of(prefillProfile, profiles.get(prefillProfile));
      }
      results.put(prefillProfile, null);
    }
    boolean encodeUsed = results.get(encodeProfile) != null;
    boolean prefillUsed = results.get(prefillProfile) != null;
    decisionListener.accept(request.targetModel(), decision(encodeUsed, prefillUsed));
    return Map.of();
  }

  /** llm-d's decision label values. */
  static String decision(boolean encode, boolean prefill) {
    if (encode && prefill) {
      return "encode-prefill-decode";
    }
    if (encode) {
      return "encode-decode";
    }
    return prefill ? "prefill-decode" : "decode-only";
  }

  @Override
  public SchedulingResult processResults(CycleState state, InferenceRequest request,
      Map<String, ProfileRunResult> results) throws SchedulingException {
    ProfileRunResult decode = results.get(decodeProfile);
    if (decode == null || decode.targets().isEmpty()) {
      throw new SchedulingException("failed to find available decode workers");
    }
    Map<String, ProfileRunResult> kept = new HashMap<>();
    kept.put(decodeProfile, decode);
    for (String stage : List.of(prefillProfile, encodeProfile)) {
      ProfileRunResult r = results.get(stage);
      if (r != null) {
        kept.put(stage, r);
      }
    }
    return new SchedulingResult(decodeProfile, kept);
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    request.removeHeader(PREFILL_HEADER);
    ProfileRunResult prefill = result.profileResults().get(prefillProfile);
    if (prefill != null && !prefill.targets().isEmpty()) {
      request.setHeader(PREFILL_HEADER, prefill.targets().get(0).endpoint().hostPort());
    }
    request.removeHeader(ENCODER_HEADER);
    ProfileRunResult encode = result.profileResults().get(encodeProfile);
    if (encode != null && !encode.targets().isEmpty()) {
      List<String> hosts = new ArrayList<>();
      encode.targets().forEach(c -> hosts.add(c.endpoint().hostPort()));
      request.setHeader(ENCODER_HEADER, String.join(",", hosts));
    }
  }
}
