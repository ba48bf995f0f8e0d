package dev.modelplane.common.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class LogSetupTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @AfterEach
  void restore() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.DEFAULT);
  }

  private String[] lines() {
    return out.toString(StandardCharsets.UTF_8).lines().toArray(String[]::new);
  }

  @Test
  void slf4jEventsGoThroughTheLayoutAtTheLevelsGiven() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.parse("info,dev.modelplane.router=debug"), out);
    Logger router = LoggerFactory.getLogger("dev.modelplane.router.Router");
    Logger other = LoggerFactory.getLogger("dev.modelplane.operator.X");
    router.atDebug().addKeyValue("pool", "p").log("pool synced");
    other.debug("hidden");
    other.info("shown {}", 1);
    try (MDC.MDCCloseable ignored = MDC.putCloseable("request_id", "r-9")) {
      router.atWarn().addKeyValue("status", 503).log("upstream failed");
    }
    LoggerFactory.getLogger("io.fabric8.Client").info("library chatter");
    LoggerFactory.getLogger("ai.djl.util.Platform").info("tokenizer library chatter");
    LoggerFactory.getLogger("io.netty.Pool").warn("library warning");
    assertThat(lines()).hasSize(4);
    assertThat(lines()[0]).matches("ts=\\S+ level=DEBUG logger=Router msg=\"pool synced\" pool=p");
    assertThat(lines()[1]).matches("ts=\\S+ level=INFO logger=X msg=\"shown 1\"");
    assertThat(lines()[2]).matches("ts=\\S+ level=WARN logger=Router msg=\"upstream failed\" status=503 "
        + "request_id=r-9");
    assertThat(lines()[3]).matches("ts=\\S+ level=WARN logger=Pool msg=\"library warning\"");
  }

  @Test
  void theClientsUnstableVersionWarningIsHiddenUnlessNamed() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.DEFAULT, out);
    LoggerFactory.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
        .warn("The client is using resource type 'inferenceobjectives' with unstable version 'v1alpha2'");
    LoggerFactory.getLogger("io.fabric8.kubernetes.client.dsl.internal.Watch").warn("watch closed");
    assertThat(lines()).singleElement().asString().contains("msg=\"watch closed\"");
    out.reset();
    LogSetup.configure(LogFormat.KEYVALUE,
        LogLevels.parse("info,io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils=warn"), out);
    LoggerFactory.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils").warn("named, so shown");
    assertThat(lines()).singleElement().asString().contains("named, so shown");
  }

  @Test
  void librariesFollowAStricterRootAndCanBeNamed() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.parse("error,io.fabric8=info"), out);
    LoggerFactory.getLogger("io.netty.Pool").warn("hidden");
    LoggerFactory.getLogger("io.fabric8.Client").info("named, so shown");
    assertThat(lines()).hasSize(1);
    assertThat(lines()[0]).contains("msg=\"named, so shown\"");
  }

  @Test
  void javaUtilLoggingGoesThroughTheSameBackendAndLevels() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.DEFAULT, out);
    java.util.logging.Logger.getLogger("io.grpc.netty.NettyServerHandler").info("grpc chatter");
    java.util.logging.Logger.getLogger("io.grpc.internal.ManagedChannelImpl").warning("grpc warning");
    assertThat(lines()).hasSize(1);
    assertThat(lines()[0]).contains("level=WARN logger=ManagedChannelImpl")
        .contains("msg=\"grpc warning\"");
  }

  @Test
  void jsonLinesCarryTheSameFields() throws Exception {
    LogSetup.configure(LogFormat.JSON, LogLevels.DEFAULT, out);
    LoggerFactory.getLogger("dev.modelplane.simulator.Simulator").atInfo().addKeyValue("port", 8000)
        .log("simulator started");
    JsonNode json = new ObjectMapper().readTree(lines()[0]);
    assertThat(json.path("level").asText()).isEqualTo("INFO");
    assertThat(json.path("logger").asText()).isEqualTo("dev.modelplane.simulator.Simulator");
    assertThat(json.path("msg").asText()).isEqualTo("simulator started");
    assertThat(json.path("port").asInt()).isEqualTo(8000);
  }

  @Test
  void withoutSetupTheDefaultIsKeyValueAtInfoWithQuietLibraries() {
    LoggerContext context = new LoggerContext();
    DefaultLogConfigurator configurator = new DefaultLogConfigurator();
    configurator.setContext(context);
    configurator.configure(context);
    assertThat(context.getLogger("ROOT").getLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("io.javaoperatorsdk").getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("ROOT").getAppender("modelplane")).isNotNull();
    assertThat(LoggerFactory.getILoggerFactory()).isInstanceOf(LoggerContext.class);
  }

  @Command(name = "demo")
  static final class Demo implements Runnable {
    @Mixin
    LogOptions logging;

    @Override
    public void run() {
    }
  }

  @Test
  void commandsTakeTheFlags() {
    Demo demo = new Demo();
    new CommandLine(demo).parseArgs();
    assertThat(demo.logging.format()).isEqualTo(LogFormat.KEYVALUE);
    assertThat(demo.logging.levels()).isEqualTo(LogLevels.DEFAULT);
    new CommandLine(demo).parseArgs("--log-format=json", "--log-level=warn,dev.modelplane=debug");
    assertThat(demo.logging.format()).isEqualTo(LogFormat.JSON);
    assertThat(demo.logging.levels()).hasToString("warn,dev.modelplane=debug");
    CommandLine cli = new CommandLine(new Demo());
    java.io.StringWriter err = new java.io.StringWriter();
    cli.setErr(new java.io.PrintWriter(err));
    assertThat(cli.execute("--log-level=loud")).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--log-level'", "unknown log level \"loud\"");
  }
}
