package dev.modelplane.router.extproc;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PickerEndpoints;
import dev.modelplane.router.pool.PoolPicker;
import dev.modelplane.router.request.PoolPickers;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's clients of the endpoint pickers its pools name: a pool whose picker has a ready address (the first
 * of the sorted list, the same on every replica) is picked there over ext_proc; one whose picker is this router, or
 * that names none, in-process; one whose picker has no address by its failure mode. One gRPC channel per picker
 * address, opened on first use and closed once no pool's picker is there any more.
 */
public final class PoolPickerClients implements PoolPickers, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PoolPickerClients.class);

  private record Client(ManagedChannel channel, ExtProcPickerClient picker) {
  }

  private final PickerEndpoints endpoints;
  private final GrpcTls.ClientTls tls;
  private final Duration timeout;
  private final ScheduledExecutorService timer;
  private final Map<String, Client> clients = new ConcurrentHashMap<>();
  private boolean closed;

  /**
   * @param tls the transport to every picker ({@code --epp-tls}, {@code --epp-ca-file}, …)
   * @param timeout how long a picker may take to answer
   * @param timer runs the timeouts
   */
  public PoolPickerClients(PickerEndpoints endpoints, GrpcTls.ClientTls tls, Duration timeout,
      ScheduledExecutorService timer) {
    this.endpoints = endpoints;
    this.tls = tls;
    this.timeout = timeout;
    this.timer = timer;
    endpoints.addListener(this::release);
  }

  @Override
  public Choice choose(EndpointPool pool) {
    PoolPicker picker = endpoints.picker(pool.key());
    if (picker == null || picker.self()) {
      return Choice.InProcess.INSTANCE;
    }
    if (picker.addresses().isEmpty()) {
      return new Choice.Unreachable(picker.unavailableMessage(), picker.failOpen());
    }
    String address = picker.addresses().get(0);
    String name = picker.name() + " at " + address;
    try {
      return new Choice.Remote(name, client(address).picker(), picker.failOpen());
    } catch (IOException e) {
      return new Choice.Unreachable("endpoint picker " + name + " cannot be called: " + e.getMessage(),
          picker.failOpen());
    }
  }

  private Client client(String address) throws IOException {
    Client existing = clients.get(address);
    if (existing != null) {
      return existing;
    }
    synchronized (this) {
      if (closed) {
        throw new IOException("the router is shutting down");
      }
      Client client = clients.get(address);
      if (client == null) {
        ManagedChannel channel = GrpcTls.channel(address, tls);
        client = new Client(channel, new ExtProcPickerClient(channel, timeout, timer));
        clients.put(address, client);
        LOG.atInfo().addKeyValue("address", address).addKeyValue("tls", tls.tls())
            .log("endpoint picker channel opened");
      }
      return client;
    }
  }

  /** Closes the channels to addresses no pool's picker uses any more (requests on them finish first). */
  private synchronized void release() {
    Set<String> used = endpoints.pickers().values().stream()
        .filter(p -> !p.self() && !p.addresses().isEmpty()).map(p -> p.addresses().get(0))
        .collect(Collectors.toSet());
    clients.entrySet().removeIf(e -> {
      if (used.contains(e.getKey())) {
        return false;
      }
      e.getValue().channel().shutdown();
      LOG.atInfo().addKeyValue("address", e.getKey()).log("endpoint picker channel closed: no pool uses it");
      return true;
    });
  }

  /** The picker addresses with an open channel. */
  public Set<String> openAddresses() {
    return Set.copyOf(clients.keySet());
  }

  @Override
  public synchronized void close() {
    closed = true;
    clients.values().forEach(c -> c.channel().shutdownNow());
    clients.clear();
  }
}
