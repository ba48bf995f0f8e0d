package dev.modelplane.operator.prefixrouting;

import dev.modelplane.operator.common.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a pool's precise prefix-cache routing was rendered, for the owner's condition {@value #CONDITION}: True when
 * the servers were given what the scorer needs, False with every contradiction (a user's flag that disagrees with the
 * scorer, an EndpointPickerConfig or tokenizer annotation that cannot be read). The condition is absent for pools
 * whose picker does not use {@value PrecisePrefixSettings#SCORER}.
 *
 * @param ok whether nothing contradicts the scorer
 * @param reason CamelCase reason
 * @param message what was rendered, or every problem, {@code field: sentence} joined by "; "
 */
public record PrecisePrefixStatus(boolean ok, String reason, String message) {
  public static final String CONDITION = "PrecisePrefixRouting";
  /** The annotation holding an EndpointPickerConfig (YAML) that replaces the generated one. */
  public static final String CONFIG_ANNOTATION = "modelplane.dev/endpoint-picker-config";
  public static final String CONFIGURED = "ServersConfigured";
  public static final String CONFLICT = "ConflictingSettings";
  public static final String INVALID_CONFIG = "InvalidPickerConfig";
  public static final String IGNORED_CONFIG = "PickerConfigIgnored";

  /** Rendered as the scorer needs; {@code summary} says how the events flow and where the tokenizer comes from. */
  public static PrecisePrefixStatus configured(String summary) {
    return new PrecisePrefixStatus(true, CONFIGURED, summary);
  }

  /** Rendered, but {@code problems} contradict the scorer. */
  public static PrecisePrefixStatus conflicting(List<String> problems) {
    return new PrecisePrefixStatus(false, CONFLICT, String.join("; ", problems));
  }

  /** This status with {@code problem} added: what was rendered is then reported as conflicting. */
  public PrecisePrefixStatus with(String problem) {
    List<String> problems = new ArrayList<>();
    if (!ok) {
      problems.add(message);
    }
    problems.add(problem);
    return ok || CONFLICT.equals(reason) ? conflicting(problems)
        : new PrecisePrefixStatus(false, reason, String.join("; ", problems));
  }

  /** The {@value #CONFIG_ANNOTATION} annotation cannot be used: the generated configuration is kept. */
  public static PrecisePrefixStatus invalidConfig(String why) {
    return new PrecisePrefixStatus(false, INVALID_CONFIG, "metadata.annotations[" + CONFIG_ANNOTATION + "]: " + why
        + "; the generated configuration is used instead");
  }

  /** The {@value #CONFIG_ANNOTATION} annotation has no picker to configure: {@code why}. */
  public static PrecisePrefixStatus ignoredConfig(String why) {
    return new PrecisePrefixStatus(false, IGNORED_CONFIG, "metadata.annotations[" + CONFIG_ANNOTATION + "]: " + why);
  }

  /**
   * The condition worth a Warning Event: {@value #CONDITION} in {@code after} when it is False and was not, or says
   * something else than in {@code before}; else null.
   */
  public static Condition newProblem(List<Condition> before, List<Condition> after) {
    Condition was = Conditions.find(before, CONDITION);
    Condition now = Conditions.find(after, CONDITION);
    boolean changed = was == null || !Objects.equals(was.getStatus(), now == null ? null : now.getStatus())
        || !Objects.equals(was.getMessage(), now == null ? null : now.getMessage());
    return now != null && Conditions.FALSE.equals(now.getStatus()) && changed ? now : null;
  }

  /** How the events reach the picker, in words. */
  public static String flow(PrecisePrefixSettings scorer, String pickerHost) {
    return scorer.discoverPods()
        ? "the picker reads each server's KV-event socket on port " + scorer.socketPort()
            + (scorer.replayPort() > 0 ? " (replay " + scorer.replayPort() + ")" : "")
        : "the servers send their KV events to tcp://" + pickerHost + ":" + scorer.centralPort();
  }
}
