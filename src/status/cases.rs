//! Ingress status as a controller computes it, the views, and the API's Status answers.

use crate::model::{Ingress, IngressClass, Object, Service};
use crate::status::{
    self, IngressReport, LoadBalancerState, NoAddress, StatusReport, StatusUpdate, ingress_rows, ingress_rows_after,
    ingress_status, render_ingress_table, render_service, service_view,
};
use serde_json::{Value, json};

const PUBLISH: &str = "ingress-nginx/ingress-nginx-controller";

fn ingress(value: Value) -> Object {
    Object::Ingress(serde_json::from_value::<Ingress>(value).unwrap())
}

fn service(value: Value) -> Object {
    Object::Service(serde_json::from_value::<Service>(value).unwrap())
}

fn class(name: &str) -> Object {
    Object::IngressClass(serde_json::from_value::<IngressClass>(json!({"metadata": {"name": name}})).unwrap())
}

/// An Ingress of class `nginx` in `default`, with an optional current status.
fn web(status: Option<Value>) -> Object {
    let mut v = json!({
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "ingressClassName": "nginx",
            "rules": [{"host": "web.example.com", "http": {"paths": [
                {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}
            ]}}]
        }
    });
    if let Some(s) = status {
        v["status"] = s;
    }
    ingress(v)
}

/// The publish Service with the given spec fields and status.
fn publish(spec: Value, status: Value) -> Object {
    service(json!({
        "metadata": {"name": "ingress-nginx-controller", "namespace": "ingress-nginx"},
        "spec": spec,
        "status": status
    }))
}

fn lb(status_ingress: Value) -> Object {
    publish(
        json!({"type": "LoadBalancer", "clusterIP": "10.96.0.10", "ports": [{"name": "http", "port": 80}]}),
        json!({"loadBalancer": {"ingress": status_ingress}}),
    )
}

fn run(objects: &[Object]) -> StatusReport {
    ingress_status(objects, Some("nginx"), PUBLISH)
}

fn only(report: &StatusReport) -> &IngressReport {
    assert_eq!(report.ingresses.len(), 1);
    &report.ingresses[0]
}

fn addresses(r: &IngressReport) -> Value {
    serde_json::to_value(&r.addresses).unwrap()
}

fn put_body(r: &IngressReport) -> Value {
    match &r.update {
        StatusUpdate::Put(req) => {
            assert_eq!(req.method, "PUT");
            serde_json::from_str(&req.body).unwrap()
        }
        other => panic!("expected a PUT, got {other:?}"),
    }
}

#[test]
fn load_balancer_ip_is_published_with_put_request() {
    let report = run(&[class("nginx"), web(None), lb(json!([{"ip": "203.0.113.10"}]))]);
    let r = only(&report);
    assert!(r.served);
    assert_eq!(r.no_address, None);
    assert_eq!(r.reason, None);
    assert_eq!(addresses(r), json!([{"ip": "203.0.113.10"}]));
    let StatusUpdate::Put(req) = &r.update else { panic!("expected a PUT, got {:?}", r.update) };
    assert_eq!(req.path, "/apis/networking.k8s.io/v1/namespaces/default/ingresses/web/status");
    let body: Value = serde_json::from_str(&req.body).unwrap();
    assert_eq!(body["apiVersion"], "networking.k8s.io/v1");
    assert_eq!(body["kind"], "Ingress");
    assert_eq!(body["metadata"]["name"], "web");
    assert_eq!(body["metadata"]["namespace"], "default");
    assert_eq!(body["spec"]["rules"][0]["host"], "web.example.com");
    assert_eq!(body["status"]["loadBalancer"]["ingress"], json!([{"ip": "203.0.113.10"}]));
}

#[test]
fn load_balancer_hostname_is_published() {
    let report = run(&[class("nginx"), web(None), lb(json!([{"hostname": "lb-1.elb.example.com"}]))]);
    let r = only(&report);
    assert_eq!(addresses(r), json!([{"hostname": "lb-1.elb.example.com"}]));
    assert_eq!(put_body(r)["status"]["loadBalancer"]["ingress"], json!([{"hostname": "lb-1.elb.example.com"}]));
}

#[test]
fn pending_load_balancer_gives_no_address() {
    let pending = publish(json!({"type": "LoadBalancer", "clusterIP": "10.96.0.10"}), json!({"loadBalancer": {}}));
    let report = run(&[class("nginx"), web(None), pending.clone()]);
    let r = only(&report);
    assert!(r.served);
    assert!(r.addresses.is_empty());
    assert_eq!(r.no_address, Some(NoAddress::LoadBalancerPending { service: PUBLISH.into() }));
    assert!(r.reason.as_deref().unwrap().contains("pending"), "{:?}", r.reason);
    assert_eq!(report.no_address, r.no_address);
    // Nothing to clear: no request.
    assert_eq!(r.update, StatusUpdate::Unchanged);

    // An old address is cleared, as ingress-nginx does while the load balancer is pending.
    let report =
        run(&[class("nginx"), web(Some(json!({"loadBalancer": {"ingress": [{"ip": "198.51.100.1"}]}}))), pending]);
    let body = put_body(only(&report));
    assert_eq!(body["status"], json!({"loadBalancer": {}}));
}

#[test]
fn cluster_ip_service_publishes_its_cluster_ip() {
    let svc = publish(json!({"type": "ClusterIP", "clusterIP": "10.96.0.10"}), json!({}));
    let r = run(&[class("nginx"), web(None), svc]);
    assert_eq!(addresses(only(&r)), json!([{"ip": "10.96.0.10"}]));

    // No type means ClusterIP.
    let svc = publish(json!({"clusterIP": "10.96.0.11"}), json!({}));
    let r = run(&[class("nginx"), web(None), svc]);
    assert_eq!(addresses(only(&r)), json!([{"ip": "10.96.0.11"}]));
}

#[test]
fn headless_cluster_ip_service_gives_no_address() {
    let svc = publish(json!({"type": "ClusterIP", "clusterIP": "None"}), json!({}));
    let report = run(&[class("nginx"), web(None), svc]);
    let r = only(&report);
    assert!(r.addresses.is_empty());
    assert!(matches!(&r.no_address, Some(NoAddress::NoServiceAddress { field, .. }) if field == "spec.clusterIP"));
    assert_eq!(r.update, StatusUpdate::Untouched);
}

#[test]
fn node_port_service_publishes_external_ips_else_cluster_ip() {
    let svc = publish(json!({"type": "NodePort", "clusterIP": "10.96.0.10"}), json!({}));
    let r = run(&[class("nginx"), web(None), svc]);
    assert_eq!(addresses(only(&r)), json!([{"ip": "10.96.0.10"}]));

    let svc = publish(
        json!({"type": "NodePort", "clusterIP": "10.96.0.10", "externalIPs": ["192.0.2.20", "192.0.2.3"]}),
        json!({}),
    );
    let r = run(&[class("nginx"), web(None), svc]);
    // Sorted as strings, as ingress-nginx sorts them.
    assert_eq!(addresses(only(&r)), json!([{"ip": "192.0.2.20"}, {"ip": "192.0.2.3"}]));
}

#[test]
fn external_name_service_publishes_its_hostname() {
    let svc = publish(json!({"type": "ExternalName", "externalName": "proxy.example.net"}), json!({}));
    let r = run(&[class("nginx"), web(None), svc]);
    assert_eq!(addresses(only(&r)), json!([{"hostname": "proxy.example.net"}]));
}

#[test]
fn load_balancer_adds_external_ips_deduplicated_and_sorted() {
    let svc = publish(
        json!({"type": "LoadBalancer", "externalIPs": ["203.0.113.10", "192.0.2.1"]}),
        json!({"loadBalancer": {"ingress": [{"hostname": "lb.example.com"}, {"ip": "203.0.113.10"}]}}),
    );
    let r = run(&[class("nginx"), web(None), svc]);
    assert_eq!(
        addresses(only(&r)),
        json!([{"ip": "192.0.2.1"}, {"ip": "203.0.113.10"}, {"hostname": "lb.example.com"}])
    );
}

#[test]
fn ingress_of_another_class_gets_no_address() {
    let other = ingress(json!({
        "metadata": {"name": "other", "namespace": "default"},
        "spec": {"ingressClassName": "traefik", "defaultBackend": {"service": {"name": "x", "port": {"number": 80}}}}
    }));
    let report = run(&[class("nginx"), class("traefik"), other, lb(json!([{"ip": "203.0.113.10"}]))]);
    let r = only(&report);
    assert!(!r.served);
    assert!(r.addresses.is_empty());
    let reason = r.reason.as_deref().unwrap();
    assert!(reason.contains("\"traefik\"") && reason.contains("\"nginx\""), "{reason}");
    assert!(matches!(r.no_address, Some(NoAddress::NotServed { .. })));
    assert_eq!(r.update, StatusUpdate::Untouched);
    // The publish Service itself is fine.
    assert_eq!(report.no_address, None);
    assert_eq!(report.addresses.len(), 1);
}

#[test]
fn ingress_of_unknown_class_gets_no_address() {
    let report = run(&[class("traefik"), web(None), lb(json!([{"ip": "203.0.113.10"}]))]);
    let r = only(&report);
    assert!(!r.served);
    assert!(r.addresses.is_empty());
    assert!(r.reason.as_deref().unwrap().contains("no IngressClass in the input defines"), "{:?}", r.reason);
    assert_eq!(r.update, StatusUpdate::Untouched);
}

#[test]
fn every_ingress_is_served_without_a_class() {
    let other = ingress(json!({"metadata": {"name": "other"}, "spec": {"ingressClassName": "traefik"}}));
    let report = ingress_status(&[other, lb(json!([{"ip": "203.0.113.10"}]))], None, PUBLISH);
    let r = only(&report);
    assert!(r.served);
    assert_eq!(r.namespace, "default");
    assert_eq!(put_body(r)["status"]["loadBalancer"]["ingress"], json!([{"ip": "203.0.113.10"}]));
}

#[test]
fn missing_publish_service_leaves_status_alone() {
    let report = run(&[class("nginx"), web(Some(json!({"loadBalancer": {"ingress": [{"ip": "198.51.100.1"}]}})))]);
    let r = only(&report);
    assert!(r.served);
    assert_eq!(r.no_address, Some(NoAddress::PublishServiceMissing { service: PUBLISH.into() }));
    assert!(r.reason.as_deref().unwrap().contains("not in the input"), "{:?}", r.reason);
    assert_eq!(r.update, StatusUpdate::Untouched);
    assert_eq!(report.no_address, r.no_address);

    // A Service of the same name in another namespace is not it.
    let elsewhere = service(json!({"metadata": {"name": "ingress-nginx-controller", "namespace": "default"}}));
    let report = run(&[class("nginx"), web(None), elsewhere]);
    assert!(matches!(only(&report).no_address, Some(NoAddress::PublishServiceMissing { .. })));
}

#[test]
fn invalid_publish_service_argument() {
    let report =
        ingress_status(&[class("nginx"), web(None), lb(json!([{"ip": "203.0.113.10"}]))], Some("nginx"), "controller");
    let r = only(&report);
    assert_eq!(r.no_address, Some(NoAddress::InvalidPublishService { value: "controller".into() }));
    assert!(r.reason.as_deref().unwrap().contains("<namespace>/<name>"), "{:?}", r.reason);
    assert_eq!(r.update, StatusUpdate::Untouched);
}

#[test]
fn ports_with_errors_are_copied() {
    let report = run(&[
        class("nginx"),
        web(None),
        lb(json!([{"ip": "203.0.113.10", "ipMode": "VIP", "ports": [
            {"port": 80, "protocol": "TCP"},
            {"port": 443, "protocol": "TCP", "error": "PortAllocationFailed"}
        ]}])),
    ]);
    let expected = json!([{"ip": "203.0.113.10", "ports": [
        {"port": 80, "protocol": "TCP"},
        {"port": 443, "protocol": "TCP", "error": "PortAllocationFailed"}
    ]}]);
    let r = only(&report);
    assert_eq!(addresses(r), expected);
    assert_eq!(put_body(r)["status"]["loadBalancer"]["ingress"], expected);
}

#[test]
fn no_request_when_status_already_matches() {
    let current = json!({"loadBalancer": {"ingress": [{"ip": "203.0.113.11"}, {"ip": "203.0.113.10"}]}});
    let svc = lb(json!([{"ip": "203.0.113.10"}, {"ip": "203.0.113.11"}]));
    let report = run(&[class("nginx"), web(Some(current)), svc.clone()]);
    assert_eq!(only(&report).update, StatusUpdate::Unchanged);

    // A different address does need the request.
    let stale = json!({"loadBalancer": {"ingress": [{"ip": "203.0.113.10"}]}});
    let report = run(&[class("nginx"), web(Some(stale)), svc]);
    let body = put_body(only(&report));
    assert_eq!(body["status"]["loadBalancer"]["ingress"], json!([{"ip": "203.0.113.10"}, {"ip": "203.0.113.11"}]));
}

#[test]
fn report_serializes_camel_case() {
    let report = run(&[class("nginx"), web(None), lb(json!([{"ip": "203.0.113.10"}]))]);
    let v = serde_json::to_value(&report).unwrap();
    assert_eq!(v["publishService"], PUBLISH);
    assert_eq!(v["class"], "nginx");
    assert_eq!(v["ingresses"][0]["update"]["action"], "put");
    assert_eq!(
        v["ingresses"][0]["update"]["path"],
        "/apis/networking.k8s.io/v1/namespaces/default/ingresses/web/status"
    );
    assert_eq!(v["ingresses"][0]["participation"]["kind"], "className");

    let pending = ingress_status(&[web(None)], Some("nginx"), "bad");
    let v = serde_json::to_value(&pending).unwrap();
    assert_eq!(v["noAddress"], json!({"kind": "invalidPublishService", "value": "bad"}));
}

#[test]
fn ingress_table_renders_like_kubectl() {
    let tls = ingress(json!({
        "metadata": {"name": "shop", "namespace": "default"},
        "spec": {
            "ingressClassName": "nginx",
            "tls": [{"hosts": ["shop.example.com"], "secretName": "shop-tls"}],
            "rules": [{"host": "shop.example.com"}, {"host": "www.shop.example.com"}]
        },
        "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.10"}, {"hostname": "lb.example.com"}, {"ip": "203.0.113.10"}]}}
    }));
    let bare = ingress(json!({"metadata": {"name": "catch-all", "namespace": "default"}, "spec": {}}));
    let rows = ingress_rows(&[tls.clone(), bare.clone()]);
    assert_eq!(rows[1].class, "<none>");
    assert_eq!(rows[1].hosts, "*");
    assert_eq!(
        render_ingress_table(&rows),
        "NAME        CLASS    HOSTS                                   ADDRESS                       PORTS\n\
         shop        nginx    shop.example.com,www.shop.example.com   203.0.113.10,lb.example.com   80, 443\n\
         catch-all   <none>   *                                                                     80\n"
    );

    // Two namespaces: a NAMESPACE column first, as `kubectl get ingress -A`.
    let team = ingress(
        json!({"metadata": {"name": "api", "namespace": "team-a"}, "spec": {"rules": [{"host": "api.example.com"}]}}),
    );
    assert_eq!(
        render_ingress_table(&ingress_rows(&[bare, team])),
        "NAMESPACE   NAME        CLASS    HOSTS             ADDRESS   PORTS\n\
         default     catch-all   <none>   *                           80\n\
         team-a      api         <none>   api.example.com             80\n"
    );
    assert_eq!(render_ingress_table(&[]), "");
}

#[test]
fn table_after_the_controller_shows_new_addresses() {
    let other = ingress(json!({
        "metadata": {"name": "other", "namespace": "default"},
        "spec": {"ingressClassName": "traefik"},
        "status": {"loadBalancer": {"ingress": [{"ip": "198.51.100.7"}]}}
    }));
    let objects = [class("nginx"), class("traefik"), web(None), other, lb(json!([{"ip": "203.0.113.10"}]))];
    let report = run(&objects);
    let before = ingress_rows(&objects);
    assert_eq!(before[0].address, "");
    let after = ingress_rows_after(&objects, &report);
    assert_eq!(after[0].address, "203.0.113.10");
    // Another controller's address stays.
    assert_eq!(after[1].address, "198.51.100.7");
    assert_eq!(
        render_ingress_table(&after),
        "NAME    CLASS     HOSTS             ADDRESS        PORTS\n\
         web     nginx     web.example.com   203.0.113.10   80\n\
         other   traefik   *                 198.51.100.7   80\n"
    );
}

#[test]
fn service_view_of_a_provisioned_load_balancer() {
    let Object::Service(svc) = service(json!({
        "metadata": {"name": "ingress-nginx-controller", "namespace": "ingress-nginx"},
        "spec": {
            "type": "LoadBalancer",
            "clusterIP": "10.96.0.10",
            "ports": [
                {"name": "http", "port": 80, "targetPort": "http", "nodePort": 31080},
                {"name": "https", "port": 443, "protocol": "TCP", "targetPort": 8443, "nodePort": 31443}
            ]
        },
        "status": {
            "loadBalancer": {"ingress": [{"ip": "203.0.113.10", "ports": [
                {"port": 80, "protocol": "TCP"},
                {"port": 443, "protocol": "TCP", "error": "PortAllocationFailed"}
            ]}]},
            "conditions": [{"type": "LoadBalancerPortsError", "status": "True", "reason": "PortAllocationFailed", "message": "port 443 is in use"}]
        }
    })) else {
        unreachable!()
    };
    let view = service_view(&svc);
    let LoadBalancerState::Provisioned { ingress, port_errors } = &view.load_balancer else {
        panic!("{:?}", view.load_balancer)
    };
    assert_eq!(ingress.len(), 1);
    assert_eq!(port_errors.len(), 1);
    assert_eq!(port_errors[0].error, "PortAllocationFailed");
    assert_eq!(view.ports[0].protocol, "TCP");
    assert_eq!(view.ports[0].target_port, "http");
    assert_eq!(view.ports[1].target_port, "8443");

    let v = serde_json::to_value(&view).unwrap();
    assert_eq!(v["type"], "LoadBalancer");
    assert_eq!(v["clusterIP"], "10.96.0.10");
    assert_eq!(
        v["ports"][0],
        json!({"name": "http", "port": 80, "protocol": "TCP", "targetPort": "http", "nodePort": 31080})
    );
    assert_eq!(v["loadBalancer"]["state"], "provisioned");
    assert_eq!(
        v["loadBalancer"]["portErrors"],
        json!([{"address": "203.0.113.10", "port": 443, "protocol": "TCP", "error": "PortAllocationFailed"}])
    );
    assert_eq!(v["conditions"][0]["type"], "LoadBalancerPortsError");
    assert_eq!(v["conditions"][0]["reason"], "PortAllocationFailed");

    assert_eq!(
        render_service(&view),
        "Name:                  ingress-nginx-controller\n\
         Namespace:             ingress-nginx\n\
         Type:                  LoadBalancer\n\
         IP:                    10.96.0.10\n\
         External IPs:          <none>\n\
         Port:                  http  80/TCP\n\
         TargetPort:            http/TCP\n\
         NodePort:              http  31080/TCP\n\
         Port:                  https  443/TCP\n\
         TargetPort:            8443/TCP\n\
         NodePort:              https  31443/TCP\n\
         LoadBalancer Ingress:  203.0.113.10\n\
         Port Error:            203.0.113.10 443/TCP: PortAllocationFailed\n\
         Conditions:\n\
         \x20 Type                     Status   Reason                 Message\n\
         \x20 ----                     ------   ------                 -------\n\
         \x20 LoadBalancerPortsError   True     PortAllocationFailed   port 443 is in use\n"
    );
}

#[test]
fn service_view_states() {
    let pending = service(json!({"metadata": {"name": "lb"}, "spec": {"type": "LoadBalancer"}}));
    let plain = service(json!({"metadata": {"name": "web"}, "spec": {"ports": [{"port": 80}]}}));
    let (Object::Service(pending), Object::Service(plain)) = (pending, plain) else { unreachable!() };

    let view = service_view(&pending);
    assert_eq!(view.load_balancer, LoadBalancerState::Pending);
    assert_eq!(serde_json::to_value(&view.load_balancer).unwrap(), json!({"state": "pending"}));
    assert!(render_service(&view).contains("LoadBalancer Ingress:  <pending>\n"));

    let view = service_view(&plain);
    assert_eq!(view.service_type, "ClusterIP");
    assert_eq!(view.load_balancer, LoadBalancerState::NotLoadBalancer);
    assert_eq!(view.ports[0].target_port, "80");
    assert_eq!(
        render_service(&view),
        "Name:                  web\n\
         Namespace:             default\n\
         Type:                  ClusterIP\n\
         IP:                    <none>\n\
         External IPs:          <none>\n\
         Port:                  <unset>  80/TCP\n\
         TargetPort:            80/TCP\n\
         Conditions:            <none>\n"
    );
}

#[test]
fn service_addresses_is_usable_alone() {
    let Object::Service(svc) = lb(json!([{"ip": "203.0.113.10"}])) else { unreachable!() };
    assert_eq!(
        serde_json::to_value(status::service_addresses(&svc).unwrap()).unwrap(),
        json!([{"ip": "203.0.113.10"}])
    );
    let Object::Service(odd) = publish(json!({"type": "Weird"}), json!({})) else { unreachable!() };
    assert_eq!(
        status::service_addresses(&odd),
        Err(NoAddress::UnsupportedServiceType { service: PUBLISH.into(), service_type: "Weird".into() })
    );
}
