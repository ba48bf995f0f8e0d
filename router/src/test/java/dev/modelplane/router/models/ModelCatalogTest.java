package dev.modelplane.router.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteRule;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.ModelMatch;
import dev.modelplane.api.gie.v1alpha2.ModelMatchType;
import dev.modelplane.api.gie.v1alpha2.ModelRewriteMatch;
import dev.modelplane.api.gie.v1alpha2.PoolObjectReference;
import dev.modelplane.api.gie.v1alpha2.TargetModel;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.ModelRewrites;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lister against real HTTP servers on loopback, and the catalog built from what they list. */
class ModelCatalogTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final Vertx vertx = Vertx.vertx();
  private final ModelLister lister = new ModelLister(vertx,
      new ModelLister.Settings(Duration.ofMillis(100), Duration.ofMillis(50), Duration.ofSeconds(2)));
  private final PoolRegistry registry = new PoolRegistry();

  @AfterEach
  void close() throws Exception {
    lister.close();
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  private FakeModelServer server(String name, String list) throws Exception {
    return new FakeModelServer(vertx, name).modelList(list).start();
  }

  private EndpointPool pool(String name, FakeModelServer... servers) {
    EndpointPool pool = registry.getOrCreate(new PoolKey("ns", name));
    pool.setEndpoints(java.util.Arrays.stream(servers).map(s -> Endpoint.ofStatic("127.0.0.1", s.port())).toList());
    return pool;
  }

  @Test
  void poolsAreFoundByTheNamesTheirServersListAdaptersIncluded() throws Exception {
    registry.addListener(lister);
    FakeModelServer llama = server("llama", """
        {"data":[{"id":"llama-8b"},{"id":"sql-lora","parent":"llama-8b"}]}""");
    FakeModelServer qwen = server("qwen", "{\"data\":[{\"id\":\"qwen-0.5b\"}]}");
    EndpointPool llamaPool = pool("llama", llama);
    EndpointPool qwenPool = pool("qwen", qwen);
    ModelCatalog catalog = new ModelCatalog(registry, lister);
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(catalog.serving("sql-lora")).containsExactly(llamaPool);
      assertThat(catalog.serving("qwen-0.5b")).containsExactly(qwenPool);
    });
    assertThat(catalog.serving("gpt-4")).isEmpty();
    assertThat(catalog.entries()).containsExactly(
        new ModelCatalog.Entry("llama-8b", null, List.of(llamaPool.key())),
        new ModelCatalog.Entry("qwen-0.5b", null, List.of(qwenPool.key())),
        new ModelCatalog.Entry("sql-lora", "llama-8b", List.of(llamaPool.key())));
    llama.close();
    qwen.close();
  }

  @Test
  void aServerThatStopsAnsweringKeepsItsLastListAndOneThatLeavesTakesItAlong() throws Exception {
    registry.addListener(lister);
    FakeModelServer loading = server("a", null); // 503 until loaded
    EndpointPool pool = pool("p", loading);
    ModelCatalog catalog = new ModelCatalog(registry, lister);
    await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> catalog.models(pool).isEmpty());
    loading.modelList("{\"data\":[{\"id\":\"ready-now\"}]}");
    await().atMost(WAIT).until(() -> catalog.models(pool).contains("ready-now"));
    loading.modelList(null);
    await().during(Duration.ofMillis(400)).atMost(WAIT).until(() -> catalog.models(pool).contains("ready-now"));
    pool.setEndpoints(List.of());
    assertThat(catalog.models(pool)).isEmpty();
    loading.close();
  }

  @Test
  void namesARewriteMatchesAreServedByItsPool() {
    EndpointPool pool = registry.getOrCreate(new PoolKey("ns", "p"));
    pool.setRewrites(List.of(new ModelRewrites.Source("alias", null, new InferenceModelRewriteSpec(
        new PoolObjectReference(null, null, "p"), List.of(new InferenceModelRewriteRule(
            List.of(new ModelRewriteMatch(new ModelMatch(ModelMatchType.Exact, "gpt-4o"))),
            List.of(new TargetModel(null, "llama-70b"))))))));
    ModelCatalog catalog = new ModelCatalog(registry, lister);
    assertThat(catalog.serving("gpt-4o")).containsExactly(pool);
    assertThat(catalog.entries()).containsExactly(new ModelCatalog.Entry("gpt-4o", null, List.of(pool.key())));
  }
}
