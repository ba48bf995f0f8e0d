package dev.modelplane.router.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ScorerCategory;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;

class SessionAffinityTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<Candidate> pods = List.of(pod("a"), pod("b"), pod("c"));

  private static Candidate pod(String name) {
    return new Candidate(state(name, MetricsSnapshot.NONE));
  }

  private static InferenceRequest request(String... headers) {
    Map<String, String> h = new HashMap<>();
    for (int i = 0; i + 1 < headers.length; i += 2) {
      h.put(headers[i], headers[i + 1]);
    }
    return new InferenceRequest("r", "m", "m", null, h, 0, "default-flow", 0);
  }

  private static SchedulingResult picked(Candidate c) {
    return new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(c))));
  }

  private SessionAffinity affinity(String parameters) throws Exception {
    return SessionAffinity.from("test", PluginParameters.of(JSON.readTree(parameters)), clock::get);
  }

  private static String token(String endpoint) {
    return Base64.getEncoder().encodeToString(endpoint.getBytes(StandardCharsets.UTF_8));
  }

  private static double[] score(SessionAffinityScorer scorer, InferenceRequest r, List<Candidate> candidates) {
    double[] out = new double[candidates.size()];
    scorer.score(new CycleState(), r, candidates, out);
    return out;
  }

  @Test
  void theTokenRoundTripsThroughTheResponseHeader() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity("{}"));
    InferenceRequest first = request();
    assertThat(filter.filter(new CycleState(), first, pods)).as("no session yet").isSameAs(pods);
    filter.responseReceived(first, picked(pods.get(0)), 200, pods.get(1).state());
    String token = first.responseHeaders().get("x-session-token");
    assertThat(token).as("the endpoint that served, base64 of namespace/name").isEqualTo(token("ns/b"));

    InferenceRequest second = request("x-session-token", token);
    assertThat(filter.filter(new CycleState(), second, pods)).containsExactly(pods.get(1));
    assertThat(filter.filter(new CycleState(), second, List.of(pods.get(0), pods.get(2))))
        .as("the session's endpoint is gone: no preference").containsExactly(pods.get(0), pods.get(2));
  }

  @Test
  void aTokenThatDoesNotDecodeOrNamesNobodyIsNoPreference() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity("{}"));
    assertThat(filter.filter(new CycleState(), request("x-session-token", "%%%not base64"), pods)).isSameAs(pods);
    assertThat(filter.filter(new CycleState(), request("x-session-token", token("ns/zz")), pods)).isSameAs(pods);
    assertThat(filter.filter(new CycleState(), request("x-session-token", ""), pods)).isSameAs(pods);
  }

  @Test
  void theHeaderNameIsConfigurableAndCaseInsensitive() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f",
        affinity("{\"encodedEndpointHeaderConfig\":{\"header\":\" X-My-Session \"}}"));
    assertThat(filter.filter(new CycleState(), request("x-my-session", token("ns/c")), pods))
        .containsExactly(pods.get(2));
    InferenceRequest r = request();
    filter.responseReceived(r, picked(pods.get(0)), 200, null);
    assertThat(r.responseHeaders()).containsExactly(Map.entry("x-my-session", token("ns/a")));
  }

  @Test
  void aProfileInstanceWritesThatProfilesPick() throws Exception {
    SessionAffinityFilter prefill = new SessionAffinityFilter("p", affinity(
        "{\"profileName\":\"prefill\",\"encodedEndpointHeaderConfig\":{\"header\":\"x-session-token-prefill\"}}"));
    SchedulingResult result = new SchedulingResult("decode", Map.of("decode",
        new ProfileRunResult(List.of(pods.get(0))), "prefill", new ProfileRunResult(List.of(pods.get(2)))));
    InferenceRequest r = request();
    prefill.responseReceived(r, result, 200, pods.get(0).state());
    assertThat(r.responseHeaders()).containsExactly(Map.entry("x-session-token-prefill", token("ns/c")));
    InferenceRequest decodeOnly = request();
    prefill.responseReceived(decodeOnly, picked(pods.get(0)), 200, pods.get(0).state());
    assertThat(decodeOnly.responseHeaders()).as("the prefill profile did not run").isEmpty();
  }

  @Test
  void theScorerPrefersTheSessionsEndpoint() throws Exception {
    SessionAffinityScorer scorer = new SessionAffinityScorer("s", affinity("{}"));
    assertThat(score(scorer, request("x-session-token", token("ns/c")), pods)).containsExactly(0, 0, 1);
    assertThat(score(scorer, request(), pods)).containsExactly(0, 0, 0);
    assertThat(scorer.category()).isEqualTo(ScorerCategory.AFFINITY);
  }

  @Test
  void sessionIdBindsOnFirstPickAndStaysThere() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity("{\"strategy\":\"session_id\"}"));
    InferenceRequest first = request("x-session-id", " s1 ");
    assertThat(filter.filter(new CycleState(), first, pods)).as("unbound: no preference").isSameAs(pods);
    filter.preRequest(first, picked(pods.get(1)));
    filter.responseReceived(first, picked(pods.get(1)), 200, pods.get(1).state());
    assertThat(first.responseHeaders()).as("nothing is written back").isEmpty();

    InferenceRequest second = request("x-session-id", "s1");
    assertThat(filter.filter(new CycleState(), second, pods)).containsExactly(pods.get(1));
    assertThat(filter.filter(new CycleState(), request("x-session-id", "s2"), pods)).isSameAs(pods);
    assertThat(filter.filter(new CycleState(), request(), pods)).isSameAs(pods);
  }

  @Test
  void sessionIdMovesOnlyWhenItsEndpointWasNotACandidate() throws Exception {
    SessionAffinityScorer scorer = new SessionAffinityScorer("s", affinity("{\"strategy\":\"session_id\"}"));
    InferenceRequest first = request("x-session-id", "s1");
    score(scorer, first, pods);
    scorer.preRequest(first, picked(pods.get(0)));

    InferenceRequest outscored = request("x-session-id", "s1");
    assertThat(score(scorer, outscored, pods)).containsExactly(1, 0, 0);
    scorer.preRequest(outscored, picked(pods.get(2))); // other scorers outweighed the preference
    assertThat(score(scorer, request("x-session-id", "s1"), pods)).as("still bound to a").containsExactly(1, 0, 0);

    InferenceRequest absent = request("x-session-id", "s1");
    List<Candidate> withoutA = List.of(pods.get(1), pods.get(2));
    assertThat(score(scorer, absent, withoutA)).containsExactly(0, 0);
    scorer.preRequest(absent, picked(pods.get(2)));
    assertThat(score(scorer, request("x-session-id", "s1"), pods)).as("moved to c").containsExactly(0, 0, 1);
  }

  @Test
  void sessionIdBindingsExpireAfterTheTtlUnused() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity(
        "{\"strategy\":\"session_id\",\"sessionIdConfig\":{\"evictionTtlSeconds\":30,\"evictionSweepSeconds\":5}}"));
    InferenceRequest first = request("x-session-id", "s1");
    filter.filter(new CycleState(), first, pods);
    filter.preRequest(first, picked(pods.get(0)));
    clock.addAndGet(25_000_000_000L);
    InferenceRequest again = request("x-session-id", "s1");
    assertThat(filter.filter(new CycleState(), again, pods)).containsExactly(pods.get(0));
    filter.preRequest(again, picked(pods.get(0))); // used: refreshed
    clock.addAndGet(25_000_000_000L);
    assertThat(filter.filter(new CycleState(), request("x-session-id", "s1"), pods)).containsExactly(pods.get(0));
    clock.addAndGet(6_000_000_000L); // 31 s unused, and a sweep is due
    assertThat(filter.filter(new CycleState(), request("x-session-id", "s1"), pods)).isSameAs(pods);
  }

  @Test
  void sourcesAreTriedInOrderIncludingTheProducersAttribute() throws Exception {
    SessionIdProducer producer = new SessionIdProducer("cookies", "", "llm-d-session");
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity("""
        {"strategy": "session_id", "sessionIdConfig": {"sources": [
          {"header": "X-Session-Id"},
          {"attribute": "SessionIDDataKey", "producer": "cookies"}]}}"""));
    InferenceRequest byCookie = request("cookie", "a=1; llm-d-session= s9 ;b=2");
    producer.prepareRequestData(byCookie, pods);
    filter.filter(new CycleState(), byCookie, pods);
    filter.preRequest(byCookie, picked(pods.get(2)));

    InferenceRequest again = request("cookie", "llm-d-session=s9");
    producer.prepareRequestData(again, pods);
    assertThat(filter.filter(new CycleState(), again, pods)).containsExactly(pods.get(2));
    InferenceRequest headerFirst = request("cookie", "llm-d-session=s9", "x-session-id", "other");
    producer.prepareRequestData(headerFirst, pods);
    assertThat(filter.filter(new CycleState(), headerFirst, pods)).as("the header source comes first").isSameAs(pods);
  }

  @Test
  void theProducerReadsAHeaderOrACookie() {
    InferenceRequest r = request("x-sess", "  abc ");
    new SessionIdProducer("p", "x-sess", "").prepareRequestData(r, pods);
    assertThat((String) r.attribute("SessionIDDataKey/p")).isEqualTo("abc");
    InferenceRequest none = request("x-sess", "   ");
    new SessionIdProducer("p", "x-sess", "").prepareRequestData(none, pods);
    assertThat((Object) none.attribute("SessionIDDataKey/p")).isNull();
    assertThat(SessionIdProducer.cookie("a=1; sid=x=y; sid=z", "sid")).isEqualTo("x=y");
    assertThat(SessionIdProducer.cookie("=v; other=1", "sid")).isNull();
    assertThat(SessionIdProducer.cookie(null, "sid")).isNull();
  }

  @Test
  void tooLongIdentifiersAreNotBound() throws Exception {
    SessionAffinityFilter filter = new SessionAffinityFilter("f", affinity("{\"strategy\":\"session_id\"}"));
    String id = "s".repeat(SessionBindings.MAX_ID_LENGTH + 1);
    InferenceRequest first = request("x-session-id", id);
    filter.filter(new CycleState(), first, pods);
    filter.preRequest(first, picked(pods.get(0)));
    assertThat(filter.filter(new CycleState(), request("x-session-id", id), pods)).isSameAs(pods);
  }

  @Test
  void theStoreStopsBindingNewSessionsAtItsLimitUntilASweepMakesRoom() {
    SessionBindings b = new SessionBindings(10_000_000_000L, 1_000_000_000L, clock::get);
    for (int i = 0; i < SessionBindings.MAX_SESSIONS; i++) {
      b.record("s" + i, pods.get(0).endpoint().id(), null);
    }
    b.record("late", pods.get(1).endpoint().id(), null);
    assertThat(b.bound("late")).isNull();
    assertThat(b.bound("s0")).isEqualTo(pods.get(0).endpoint().id());
    clock.addAndGet(11_000_000_000L);
    b.record("late", pods.get(1).endpoint().id(), null);
    assertThat(b.size()).isEqualTo(1);
    assertThat(b.bound("late")).isEqualTo(pods.get(1).endpoint().id());
  }
}
