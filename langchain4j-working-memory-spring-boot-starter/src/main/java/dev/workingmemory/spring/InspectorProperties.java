package dev.workingmemory.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code working-memory.inspector.*} properties: whether the application's server serves the memory inspector
 * under {@value InspectorAutoConfiguration#PATH}, and the token its write actions need. Not thread-safe (Spring binds
 * it once at startup).
 */
@ConfigurationProperties(prefix = InspectorProperties.PREFIX)
public class InspectorProperties {

    /** The prefix of these properties. */
    public static final String PREFIX = WorkingMemoryProperties.PREFIX + ".inspector";

    /**
     * Whether to serve the memory inspector on the application's server, under /working-memory/inspector (behind the
     * application's Spring Security, if any). It shows what every user said: off by default.
     */
    private boolean enabled = false;

    /**
     * The token the inspector's write actions (roll back a dream, dream now, forget a user) need, at least 16
     * characters; none (the default) leaves the inspector read-only.
     */
    private String token;

    /** {@code working-memory.inspector.enabled}: whether to serve the inspector; default false. */
    public boolean isEnabled() {
        return enabled;
    }

    /** Sets {@code working-memory.inspector.enabled}. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@code working-memory.inspector.token}: the token the write actions need; null (the default) for read-only. */
    public String getToken() {
        return token;
    }

    /** Sets {@code working-memory.inspector.token}. */
    public void setToken(String token) {
        this.token = token;
    }
}
