package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PrefixMatch;

/**
 * {@code prefix-based-pd-decider}: disaggregate when the prompt has at least {@code nonCachedTokens} tokens (chars/4)
 * and at least that many of them are not already cached on the chosen decode endpoint. {@code nonCachedTokens = 0}
 * turns disaggregation off.
 */
public final class PrefixBasedPdDecider extends NamedPlugin implements PdDecider {
  public static final String TYPE = "prefix-based-pd-decider";

  /** Factory; parameter {@code nonCachedTokens} (default 0). */
  public static PrefixBasedPdDecider create(String name, PluginParameters parameters, PluginHandle handle) {
    return new PrefixBasedPdDecider(name, parameters.intValue("nonCachedTokens", 0));
  }
  static final int AVERAGE_CHARACTERS_PER_TOKEN = 4;

  private final int nonCachedTokens;

  public PrefixBasedPdDecider(String name, int nonCachedTokens) {
    super(TYPE, name);
    if (nonCachedTokens < 0) {
      throw new IllegalArgumentException(
          "nonCachedTokens parameter of prefix disaggregation decider cannot be negative");
    }
    this.nonCachedTokens = nonCachedTokens;
  }

  @Override
  public boolean disaggregate(InferenceRequest request, Candidate decodeTarget) {
    if (nonCachedTokens == 0 || decodeTarget == null || request.body() == null) {
      return false;
    }
    LlmRequestBody.Api api = request.body().api();
    if (api != LlmRequestBody.Api.COMPLETIONS && api != LlmRequestBody.Api.CHAT_COMPLETIONS) {
      return false;
    }
    int inputTokens = request.body().userInputBytes().length / AVERAGE_CHARACTERS_PER_TOKEN;
    if (inputTokens < nonCachedTokens) {
      return false;
    }
    PrefixMatch match = decodeTarget.prefixMatch();
    if (match == null) {
      return false; // no prefix producer ran: the decider cannot judge, so it keeps the request on decode
    }
    int hitTokens = match.matchBlocks() * match.blockSizeTokens();
    return inputTokens - hitTokens >= nonCachedTokens;
  }
}
