package dev.workingmemory.spring;

import dev.workingmemory.inspector.InspectorHandler;
import dev.workingmemory.inspector.InspectorRequest;
import dev.workingmemory.inspector.InspectorResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The memory inspector as a servlet: hands each request to an {@link InspectorHandler} and sends its answer as it is.
 * {@code …/inspector} is redirected to {@code …/inspector/}, so that the page's relative links resolve under it.
 *
 * <p>Thread-safe (the handler is).
 */
public class InspectorServlet extends HttpServlet {

    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final transient InspectorHandler handler;
    /** The path the servlet is mounted at, without the trailing slash: where {@code …/inspector} redirects from. */
    private final String path;

    /** A servlet that hands every request to {@code handler}, mounted at {@code path} (no trailing slash). */
    public InspectorServlet(InspectorHandler handler, String path) {
        this.handler = handler;
        this.path = path;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String pathInfo = request.getPathInfo();
        if (pathInfo == null) {
            response.sendRedirect(request.getContextPath() + path + "/");
            return;
        }
        Map<String, String> headers = new HashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, request.getHeader(name));
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        InspectorResponse answer = handler.handle(new InspectorRequest(request.getMethod(), pathInfo,
                request.getQueryString(), headers, body));
        response.setStatus(answer.status());
        answer.headers().forEach(response::setHeader);
        response.setContentType(answer.contentType());
        byte[] bytes = answer.body();
        response.setContentLength(bytes.length);
        if (!request.getMethod().equals("HEAD")) {
            response.getOutputStream().write(bytes);
        }
    }
}
