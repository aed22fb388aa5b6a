// The products a cloud resource type stands for. A Terraform line names a resource by its provider's API name
// (`aws_service_discovery_private_dns_namespace`, `azurerm_servicebus_queue`), while a decision record names the
// product ("AWS Cloud Map", "Azure Service Bus"). Where the two spellings differ, this table gives the product's own
// words, so a change that adds the resource is read as adding the product. Data, not rules: one row per service,
// the longest matching prefix wins; a type no row names keeps only its own words.

/** Resource-type prefix → the product names it stands for (each written as a record would). */
const PRODUCTS: readonly (readonly [string, readonly string[]])[] = [
  // AWS
  ["aws_service_discovery_", ["AWS Cloud Map"]],
  // Named by its feature alone: a record that turned down "AWS Systems Manager" for one job did not turn down its
  // parameter store.
  ["aws_ssm_parameter", ["SSM Parameter Store", "Parameter Store"]],
  ["aws_ssm_", ["AWS Systems Manager", "SSM"]],
  ["aws_iam_saml_provider", ["IAM Federated Access", "SAML federation"]],
  ["aws_iam_openid_connect_provider", ["IAM Federated Access", "OIDC federation"]],
  ["aws_ssoadmin_", ["AWS SSO", "IAM Identity Center"]],
  ["aws_identitystore_", ["AWS SSO", "IAM Identity Center"]],
  ["aws_cloudwatch_event_", ["Amazon EventBridge", "CloudWatch Events"]],
  ["aws_scheduler_", ["EventBridge Scheduler"]],
  ["aws_sfn_", ["AWS Step Functions"]],
  ["aws_lb", ["Elastic Load Balancing", "Application Load Balancer"]],
  ["aws_alb", ["Elastic Load Balancing", "Application Load Balancer"]],
  ["aws_elb", ["Elastic Load Balancing", "Classic Load Balancer"]],
  ["aws_elasticache_", ["Amazon ElastiCache"]],
  ["aws_db_", ["Amazon RDS"]],
  ["aws_rds_", ["Amazon RDS", "Amazon Aurora"]],
  ["aws_secretsmanager_", ["AWS Secrets Manager"]],
  ["aws_kms_", ["AWS KMS"]],
  ["aws_sqs_", ["Amazon SQS"]],
  ["aws_sns_", ["Amazon SNS"]],
  ["aws_kinesis_", ["Amazon Kinesis"]],
  ["aws_msk_", ["Amazon MSK", "Apache Kafka"]],
  ["aws_mq_", ["Amazon MQ"]],
  ["aws_cognito_", ["Amazon Cognito"]],
  ["aws_api_gateway_", ["Amazon API Gateway"]],
  ["aws_apigatewayv2_", ["Amazon API Gateway"]],
  ["aws_lambda_", ["AWS Lambda"]],
  ["aws_ecs_", ["Amazon ECS"]],
  ["aws_eks_", ["Amazon EKS"]],
  ["aws_ecr_", ["Amazon ECR"]],
  ["aws_dynamodb_", ["Amazon DynamoDB"]],
  ["aws_opensearch_", ["Amazon OpenSearch Service"]],
  ["aws_elasticsearch_", ["Amazon Elasticsearch Service"]],
  ["aws_cloudfront_", ["Amazon CloudFront"]],
  ["aws_route53_", ["Amazon Route 53"]],
  ["aws_wafv2_", ["AWS WAF"]],
  ["aws_waf_", ["AWS WAF"]],
  ["aws_guardduty_", ["Amazon GuardDuty"]],
  ["aws_efs_", ["Amazon EFS"]],
  ["aws_codebuild_", ["AWS CodeBuild"]],
  ["aws_codepipeline", ["AWS CodePipeline"]],
  ["aws_cloudtrail", ["AWS CloudTrail"]],
  ["aws_config_", ["AWS Config"]],
  ["aws_instance", ["Amazon EC2"]],
  ["aws_launch_template", ["Amazon EC2"]],
  ["aws_autoscaling_", ["Amazon EC2 Auto Scaling"]],
  ["aws_s3_", ["Amazon S3"]],
  // Azure
  ["azurerm_servicebus_", ["Azure Service Bus"]],
  ["azurerm_eventhub", ["Azure Event Hubs"]],
  ["azurerm_eventgrid_", ["Azure Event Grid"]],
  ["azurerm_mssql_", ["Azure SQL Database", "SQL Server"]],
  ["azurerm_sql_", ["Azure SQL Database", "SQL Server"]],
  ["azurerm_postgresql_", ["Azure Database for PostgreSQL"]],
  ["azurerm_cosmosdb_", ["Azure Cosmos DB"]],
  ["azurerm_key_vault", ["Azure Key Vault"]],
  ["azurerm_app_service", ["Azure App Service"]],
  ["azurerm_linux_web_app", ["Azure App Service"]],
  ["azurerm_windows_web_app", ["Azure App Service"]],
  ["azurerm_container_app", ["Azure Container Apps"]],
  ["azurerm_kubernetes_cluster", ["Azure Kubernetes Service", "AKS"]],
  ["azurerm_redis_cache", ["Azure Cache for Redis"]],
  ["azurerm_application_insights", ["Application Insights"]],
  ["azurerm_cdn_frontdoor_", ["Azure Front Door"]],
  ["azurerm_frontdoor", ["Azure Front Door"]],
  ["azurerm_api_management", ["Azure API Management"]],
  ["azurerm_storage_", ["Azure Storage"]],
  ["azurerm_function_app", ["Azure Functions"]],
  ["azurerm_linux_function_app", ["Azure Functions"]],
  // Google Cloud
  ["google_pubsub_", ["Google Cloud Pub/Sub"]],
  ["google_sql_", ["Google Cloud SQL"]],
  ["google_cloud_run_", ["Google Cloud Run"]],
  ["google_container_cluster", ["Google Kubernetes Engine", "GKE"]],
  ["google_storage_", ["Google Cloud Storage"]],
  ["google_secret_manager_", ["Google Secret Manager"]],
  ["google_cloudfunctions", ["Google Cloud Functions"]],
  ["google_bigquery_", ["Google BigQuery"]],
];

/** The product names a resource type stands for (longest prefix), or none. */
export function cloudProductsOf(resourceType: string): readonly string[] {
  const type = resourceType.toLowerCase();
  let best: readonly string[] = [];
  let bestLength = 0;
  for (const [prefix, names] of PRODUCTS) {
    if (prefix.length > bestLength && type.startsWith(prefix)) {
      best = names;
      bestLength = prefix.length;
    }
  }
  return best;
}
