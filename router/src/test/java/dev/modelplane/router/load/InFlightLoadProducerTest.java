package dev.modelplane.router.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;

class InFlightLoadProducerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A completion whose prompt is {@code bytes} long: {@code ceil(bytes / 4)} estimated tokens. */
  static InferenceRequest request(String id, int bytes, Integer maxTokens) {
    ObjectNode body = JSON.createObjectNode().put("model", "m").put("prompt", "x".repeat(bytes));
    if (maxTokens != null) {
      body.put("max_tokens", maxTokens);
    }
    return new InferenceRequest(id, "m", "m", new LlmRequestBody(LlmRequestBody.Api.COMPLETIONS, body), Map.of(), 0,
        "default-flow", 0);
  }

  static Candidate candidate(String name, PrefixMatch match) {
    Candidate c = new Candidate(state(name, MetricsSnapshot.NONE));
    c.prefixMatch(match);
    return c;
  }

  static SchedulingResult picked(Candidate target) {
    return new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(target))));
  }

  private static final ResponseOutcome FINISHED = new ResponseOutcome(200, true, 100);

  @Test
  void chargesThePromptLessTheCachedPrefixPlusTheTailPastTheMatchedBlocks() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", false, 1.5, -1);
    InferenceRequest r = request("r1", 4 * 1000, null); // 1000 tokens
    assertThat(p.requestTokens(r, candidate("none", null))).isEqualTo(1000);
    assertThat(p.requestTokens(r, candidate("empty", PrefixMatch.NONE))).isEqualTo(1000);
    // 60 blocks of 16 indexed (960 tokens), 50 matched: 10 uncached blocks + a 40-token tail.
    assertThat(p.requestTokens(r, candidate("hit", new PrefixMatch(50, 60, 16)))).isEqualTo(10 * 16 + 40);
    assertThat(p.requestTokens(r, candidate("full", new PrefixMatch(60, 60, 16)))).isEqualTo(40);
    assertThat(p.requestTokens(request("r2", 4001, null), candidate("none", null))).as("rounded up").isEqualTo(1001);
  }

  @Test
  void promptTokensLeaveWhenTheResponseStartsTheRequestWhenItEnds() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", false, 1.5, -1);
    Candidate a = candidate("a", new PrefixMatch(2, 10, 16));
    InferenceRequest r = request("r1", 4 * 200, null);
    p.preRequest(r, picked(a));
    EndpointId id = a.endpoint().id();
    assertThat(p.load(id)).isEqualTo(new InFlightLoadProducer.Load(1, 8 * 16 + 40));

    InferenceRequest other = request("r2", 4 * 50, null);
    p.preRequest(other, picked(candidate("a", null)));
    assertThat(p.load(id)).isEqualTo(new InFlightLoadProducer.Load(2, 168 + 50));

    p.responseReceived(r, picked(a), 200, a.state());
    assertThat(p.load(id)).as("prefill done: tokens released, request still running")
        .isEqualTo(new InFlightLoadProducer.Load(2, 50));
    p.responseReceived(r, picked(a), 200, a.state());
    assertThat(p.load(id)).as("released once").isEqualTo(new InFlightLoadProducer.Load(2, 50));
    p.responseComplete(r, a.state(), FINISHED);
    assertThat(p.load(id)).isEqualTo(new InFlightLoadProducer.Load(1, 50));
    p.responseComplete(r, a.state(), FINISHED);
    assertThat(p.load(id)).isEqualTo(new InFlightLoadProducer.Load(1, 50));
  }

  @Test
  void anAbortedRequestReleasesEverythingItHeld() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", false, 1.5, -1);
    Candidate a = candidate("a", null);
    InferenceRequest r = request("r1", 400, null);
    p.preRequest(r, picked(a));
    assertThat(p.load(a.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    // The client left before any response: no ResponseReceived, only ResponseComplete.
    p.responseComplete(r, null, new ResponseOutcome(0, false, 0));
    assertThat(p.load(a.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }

  @Test
  void aRequestScheduledAgainMovesItsChargeToTheNewPick() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", false, 1.5, -1);
    Candidate a = candidate("a", null);
    Candidate b = candidate("b", null);
    InferenceRequest r = request("r1", 400, null);
    p.preRequest(r, picked(a));
    p.preRequest(r, picked(b)); // the attempt on a failed before any response; the director scheduled again
    assertThat(p.load(a.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
    assertThat(p.load(b.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    p.responseComplete(r, b.state(), FINISHED);
    assertThat(p.load(b.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }

  @Test
  void estimatedOutputTokensStayUntilTheResponseEnds() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", true, 1.5, -1);
    Candidate a = candidate("a", null);
    InferenceRequest r = request("r1", 4 * 100, null);
    assertThat(p.requestTokens(r, a)).isEqualTo(100 + 150);
    p.preRequest(r, picked(a));
    p.responseReceived(r, picked(a), 200, a.state());
    assertThat(p.load(a.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 250));
    p.responseComplete(r, a.state(), FINISHED);
    assertThat(p.load(a.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }

  @Test
  void theOutputEstimateIsCappedByTheClientAndTheOperatorAndUsesTheWholePrompt() {
    Candidate cached = candidate("a", new PrefixMatch(6, 6, 16)); // the whole 96-token prompt is cached
    InFlightLoadProducer uncapped = new InFlightLoadProducer("p", true, 1.5, -1);
    assertThat(uncapped.requestTokens(request("r", 4 * 96, null), cached)).isEqualTo(144);
    assertThat(uncapped.requestTokens(request("r", 4 * 96, 20), cached)).isEqualTo(20);
    InFlightLoadProducer capped = new InFlightLoadProducer("p", true, 1.5, 30);
    assertThat(capped.requestTokens(request("r", 4 * 96, null), cached)).isEqualTo(30);
    assertThat(capped.requestTokens(request("r", 4 * 96, 20), cached)).isEqualTo(20);
    assertThat(new InFlightLoadProducer("p", true, 0.25, -1).estimatedOutput(10, 0)).as("rounded").isEqualTo(3);
    assertThat(new InFlightLoadProducer("p", true, 1.5, 0).requestTokens(request("r", 400, null), cached))
        .isEqualTo(4);
  }

  @Test
  void aPrefillPickIsReleasedWholeWhenTheResponseStarts() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", false, 1.5, -1);
    Candidate decode = candidate("decode", null);
    Candidate prefill = candidate("prefill", null);
    Map<String, ProfileRunResult> results = new LinkedHashMap<>();
    results.put("decode", new ProfileRunResult(List.of(decode)));
    results.put("prefill", new ProfileRunResult(List.of(prefill)));
    SchedulingResult result = new SchedulingResult("decode", results);
    InferenceRequest r = request("r1", 400, null);
    p.preRequest(r, result);
    assertThat(p.load(decode.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    assertThat(p.load(prefill.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    p.responseReceived(r, result, 200, decode.state());
    assertThat(p.load(decode.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 0));
    assertThat(p.load(prefill.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
    p.responseComplete(r, decode.state(), FINISHED);
    assertThat(p.load(decode.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }

  @Test
  void withOutputEstimatesOnlyThePrefillPickLeavesWhenTheResponseStarts() {
    InFlightLoadProducer p = new InFlightLoadProducer("p", true, 1.0, -1);
    Candidate decode = candidate("decode", null);
    Candidate prefill = candidate("prefill", null);
    SchedulingResult result = new SchedulingResult("decode", Map.of("decode",
        new ProfileRunResult(List.of(decode)), "prefill", new ProfileRunResult(List.of(prefill))));
    InferenceRequest r = request("r1", 400, null);
    p.preRequest(r, result);
    p.responseReceived(r, result, 200, decode.state());
    assertThat(p.load(decode.endpoint().id())).isEqualTo(new InFlightLoadProducer.Load(1, 200));
    assertThat(p.load(prefill.endpoint().id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }
}
