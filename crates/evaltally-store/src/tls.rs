//! TLS for the connection, as libpq's `sslmode` asks: rustls with the ring provider.
//!
//! - `disable`: no TLS.
//! - `prefer` (the default): TLS when the server offers it, without checking its certificate
//!   (libpq does not check it either); plain when it does not.
//! - `require`: TLS, the certificate not checked, unless a root certificate is given
//!   (`sslrootcert`, `PGSSLROOTCERT`, or `~/.postgresql/root.crt` exists): then as `verify-ca`,
//!   as libpq does.
//! - `verify-ca`: the server's chain checked against the roots (the `sslrootcert` file, else
//!   `~/.postgresql/root.crt`, else the system's roots; `sslrootcert=system` for the system's).
//! - `verify-full`: the chain and the host name (or IP address) checked.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{ClientConfig, WebPkiServerVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SslMode {
    /// No TLS.
    Disable,
    /// TLS if the server offers it, unchecked; else plain.
    Prefer,
    /// TLS, unchecked (checked as `VerifyCa` when a root certificate is given).
    Require,
    /// TLS, the chain checked.
    VerifyCa,
    /// TLS, the chain and the host name checked.
    VerifyFull,
}

impl SslMode {
    /// Parses a `sslmode` value (`allow` is taken as `prefer`: both connect either way).
    pub(crate) fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "disable" => Self::Disable,
            "allow" | "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            _ => return None,
        })
    }

    /// The `sslmode` value, for messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Disable => "disable",
            Self::Prefer => "prefer",
            Self::Require => "require",
            Self::VerifyCa => "verify-ca",
            Self::VerifyFull => "verify-full",
        }
    }
}

/// Where the root certificates come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Roots {
    /// A PEM file of CA certificates.
    File(PathBuf),
    /// The operating system's store.
    System,
}

/// The roots to check against: `sslrootcert` as given (`system` for the system's store),
/// else `~/.postgresql/root.crt` when it exists (as libpq), else the system's store. The
/// second value says whether they were given (a file named or found), which turns `require`
/// into `verify-ca`.
pub(crate) fn roots(sslrootcert: Option<&str>) -> (Roots, bool) {
    match sslrootcert {
        Some("system") => (Roots::System, false),
        Some(path) => (Roots::File(PathBuf::from(path)), true),
        None => {
            let default = std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".postgresql").join("root.crt"))
                .filter(|p| p.is_file());
            match default {
                Some(p) => (Roots::File(p), true),
                None => (Roots::System, false),
            }
        }
    }
}

/// The client configuration for `mode` (not `Disable`), checking against `roots`.
pub(crate) fn client_config(mode: SslMode, roots: &Roots) -> Result<ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = match mode {
        SslMode::Disable | SslMode::Prefer | SslMode::Require => {
            Arc::new(NameUnchecked { chain: None, algorithms: provider.signature_verification_algorithms })
        }
        SslMode::VerifyCa | SslMode::VerifyFull => {
            let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(root_store(roots)?), provider.clone())
                .build()
                .map_err(|e| format!("cannot use the root certificates: {e}"))?;
            if mode == SslMode::VerifyFull {
                webpki
            } else {
                Arc::new(NameUnchecked { chain: Some(webpki), algorithms: provider.signature_verification_algorithms })
            }
        }
    };
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// The root certificates `roots` names, at least one.
fn root_store(roots: &Roots) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::File(path) => {
            let certs = read_pem(path)?;
            let (added, _) = store.add_parsable_certificates(certs);
            if added == 0 {
                return Err(format!("sslrootcert `{}` holds no usable CA certificate", path.display()));
            }
        }
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
            if store.is_empty() {
                return Err("no root certificate in the system's store: give the server's CA with sslrootcert=PATH \
                     or PGSSLROOTCERT"
                    .into());
            }
        }
    }
    Ok(store)
}

/// The certificates of a PEM file.
fn read_pem(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("sslrootcert `{}`: {e}", path.display()))?;
    CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("sslrootcert `{}`: not a PEM file of certificates: {e}", path.display()))
}

/// The modes that do not check the server's name: `require` and `prefer` accept any
/// certificate (without a chain to check, as libpq does without a root certificate), and
/// `verify-ca` checks the chain against the roots but not the name. Either way the
/// handshake's signatures are checked, with the provider's algorithms (the ones
/// `WebPkiServerVerifier` uses).
#[derive(Debug)]
struct NameUnchecked {
    /// The chain's verifier, for `verify-ca`.
    chain: Option<Arc<WebPkiServerVerifier>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for NameUnchecked {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else { return Ok(ServerCertVerified::assertion()) };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
