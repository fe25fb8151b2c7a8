//! The API's one error shape: `{"error": "..."}` with a status that says whose fault it was.
//!
//! Bad input is a 4xx naming what was wrong (the square, the hole, the cell, the field); a full job queue or a
//! request that ran out of time is a 503; only a bug in the server is a 500.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// One line: what was wrong and where.
    #[schema(example = "position: the square I9 is not on the board")]
    pub error: String,
}

/// An error answer: a status and one line of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed or names something impossible.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 422: well formed, but the request cannot be carried out (an illegal move, a board too big to count).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }

    /// 404: no such route or resource.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 503: the server is too busy, or the job did not finish within its time limit.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// 500: a bug in the server (never bad input).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }

    /// The same error with `prefix: ` in front of the message (the field it came from).
    #[must_use]
    pub fn context(mut self, prefix: &str) -> ApiError {
        self.message = format!("{prefix}: {}", self.message);
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: self.message,
            }),
        )
            .into_response()
    }
}

/// The result type of every handler.
pub type ApiResult<T> = Result<Json<T>, ApiError>;

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = r.status();
        let message = match &r {
            JsonRejection::MissingJsonContentType(_) => {
                "the request body must be JSON, sent with the header Content-Type: application/json"
                    .to_string()
            }
            JsonRejection::JsonSyntaxError(_) => {
                format!("the body is not valid JSON: {}", source_text(&r))
            }
            JsonRejection::JsonDataError(_) => {
                format!("the body does not fit this route: {}", source_text(&r))
            }
            JsonRejection::BytesRejection(_) if status == StatusCode::PAYLOAD_TOO_LARGE => {
                format!(
                    "the body is larger than the limit of {} bytes",
                    super::BODY_LIMIT
                )
            }
            _ => r.body_text(),
        };
        ApiError { status, message }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: format!("bad query string: {}", source_text(&r)),
        }
    }
}

/// The innermost cause of a rejection (serde's message with its line and column, or the field path).
fn source_text(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut cur = err.source();
    while let Some(e) = cur {
        text = e.to_string();
        cur = e.source();
    }
    text
}

/// A JSON body whose rejections are answered in the API's error shape.
#[derive(Debug, Clone, Copy, Default)]
pub struct Body<T>(pub T);

impl<T, S> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(r) => Err(ApiError::from(r)),
        }
    }
}
