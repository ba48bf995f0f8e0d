package dev.modelplane.common.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's configuration when no command has called {@link LogSetup} yet (libraries, tests, start-up): key=value
 * lines on standard error at INFO, {@link LogSetup#QUIET_LIBRARIES} at WARN. A {@code logback.xml} on the class path
 * or {@code -Dlogback.configurationFile} still takes precedence, as Logback documents. Registered as a
 * {@code ch.qos.logback.classic.spi.Configurator} service.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_LOW_PRIORITY)
public final class DefaultLogConfigurator extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    ClassLoader loader = DefaultLogConfigurator.class.getClassLoader();
    if (System.getProperty("logback.configurationFile") != null || loader.getResource("logback-test.xml") != null
        || loader.getResource("logback.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    LogSetup.install(context, LogFormat.KEYVALUE, LogLevels.DEFAULT, null);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
