package dev.modelplane.router.request;

import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.load.InFlightLoadProducer;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.scheduling.ResponseOutcome;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A request scheduled again after a failed attempt keeps what its plugins noted, so they can undo it. */
class RescheduledRequestTest {
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    flow.shutdownNow();
  }

  @Test
  void tokensChargedToTheFailedEndpointAreReleasedWhenTheRequestIsScheduledAgain() throws Exception {
    PoolRegistry pools = new PoolRegistry();
    EndpointPool pool = pools.getOrCreate(PoolKey.STATIC);
    pool.setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000), Endpoint.ofStatic("10.0.0.2", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(PickerConfigs.LLMD_RECOMMENDED.yaml());
    InFlightLoadProducer load = (InFlightLoadProducer) setup.plugins().get(InFlightLoadProducer.TYPE);
    RequestDirector director = new RequestDirector(setup, new RouterMetrics(pools, System::nanoTime, 2_000_000_000L),
        System::nanoTime, flow);
    byte[] body = ("{\"model\":\"m\",\"prompt\":\"" + "p".repeat(400) + "\"}").getBytes(StandardCharsets.UTF_8);

    RoutingDecision first = director.route(new RequestInput(pool, "/v1/completions", new HashMap<>(), body, null,
        System.nanoTime())).decision().get(10, TimeUnit.SECONDS);
    EndpointState failed = first.destination().state();
    assertThat(load.load(failed.id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    director.started(first);
    director.finished(first); // the connection was refused

    RoutingDecision second = director.retry(first, Set.of(first.destination().hostPort()));
    EndpointState served = second.destination().state();
    assertThat(served).isNotSameAs(failed);
    assertThat(load.load(failed.id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
    assertThat(load.load(served.id())).isEqualTo(new InFlightLoadProducer.Load(1, 100));
    director.started(second);
    director.responseReceived(second, 200, second.destination());
    director.finished(second);
    director.complete(second, new ResponseOutcome(200, true, 10), System.nanoTime());
    assertThat(load.load(served.id())).isEqualTo(InFlightLoadProducer.Load.ZERO);
  }
}
